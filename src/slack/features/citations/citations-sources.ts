/**
 * `citations <brand> sources <domain>`: GET /get-citations (view=sources). The domain is
 * required and checked before anything is sent (the service would answer 400); a 404 means
 * no citation comes from that domain, which is an answer, not a failure.
 */
import { NotFoundError } from '../../../api/errors.js';
import { escapeMrkdwn } from '../../../messages/mrkdwn.js';
import type { Reply } from '../../../messages/reply.js';
import { commandText } from '../../commands/args/command-text.js';
import { withShareButton } from '../../commands/args/with-share-button.js';
import type { CitationViewArgs } from './citation-view-args.js';
import { citationsSourcesReply, noSourceCitationsReply } from './citations-sources-view.js';

/**
 * People paste URLs, and Slack may wrap them as `<https://x.com|x.com>`: keep the host.
 * Returns undefined when what is left cannot be a domain.
 */
export function normaliseDomain(input: string): string | undefined {
  let text = input.trim();
  const slackLink = /^<([^|>]+)(?:\|[^>]*)?>$/.exec(text);
  if (slackLink) text = slackLink[1]!;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    try {
      text = new URL(text).hostname;
    } catch {
      return undefined;
    }
  }
  text = text
    .replace(/[/?#].*$/, '')
    .replace(/\.$/, '')
    .toLowerCase();
  return /^(?=.{1,253}$)([a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?\.)+[a-z0-9-]{2,63}$/.test(text)
    ? text
    : undefined;
}

export async function runCitationsSources(a: CitationViewArgs): Promise<void> {
  const [typed, ...extra] = a.rest;
  if (typed === undefined) throw a.fail('Name the domain to look at, e.g. `sources techradar.com`.');
  if (extra.length > 0) throw a.fail('`sources` takes one domain.');
  const domain = normaliseDomain(typed);
  if (domain === undefined) {
    throw a.fail(`“${escapeMrkdwn(typed.slice(0, 80))}” is not a domain; write it like \`techradar.com\`.`);
  }
  const limit = a.flags.int(1, 500, 'limit');
  a.flags.rejectUnknown();
  const brand = await a.ctx.resolveBrand(a.brandToken);
  let reply: Reply;
  try {
    const response = await a.ctx.deps.api.getCitationSources(
      { brandId: brand.id, domain, ...(limit !== undefined ? { limit } : {}) },
      { lane: a.ctx.lane },
    );
    reply = citationsSourcesReply({ brand, response });
  } catch (err) {
    // API.md §7: 404 = no citations for the domain.
    if (!(err instanceof NotFoundError)) throw err;
    reply = noSourceCitationsReply(brand, domain);
  }
  await a.ctx.respond(
    withShareButton(reply, commandText('citations', brand.id, ['sources', domain], { limit })),
  );
}
