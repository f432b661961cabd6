/**
 * `citations <brand> sources <domain>`: GET /get-citations (view=sources). The domain is
 * required and checked before anything is sent (the service would answer 400); a 404 means
 * no citation comes from that domain, which is an answer, not a failure.
 */
import { NotFoundError } from '../../../api/errors.js';
import type { CitationHeatmapResponse } from '../../../api/schemas/index.js';
import { escapeMrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import type { Reply } from '../../../messages/reply.js';
import { commandText } from '../../commands/args/command-text.js';
import { withShareButton } from '../../commands/args/with-share-button.js';
import { citationSwitcher } from './citation-switcher.js';
import type { CitationViewArgs } from './citation-view-args.js';
import {
  citationsSourcesReply,
  noSourceCitationsReply,
  noSourceDomainsReply,
} from './citations-sources-view.js';

/** How many other top domains `--most-cited` offers in the View menu. */
const OTHER_DOMAINS = 4;

/**
 * The heatmap's domains, most cited first: by the mentions counted on each (every brand's
 * cells), the service's order breaking ties.
 */
function domainsByCitations(heatmap: CitationHeatmapResponse): string[] {
  const total = new Map<string, number>();
  for (const cell of heatmap.cells)
    total.set(cell.domain, (total.get(cell.domain) ?? 0) + cell.mention_count);
  return heatmap.domains
    .map((domain, order) => ({ domain, order, count: total.get(domain) ?? 0 }))
    .sort((a, b) => b.count - a.count || a.order - b.order)
    .map((d) => d.domain);
}

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
  const mostCited = a.flags.bool('most-cited');
  const [typed, ...extra] = a.rest;
  if (mostCited && typed !== undefined) throw a.fail('Name a domain or use `--most-cited`, not both.');
  if (!mostCited && typed === undefined)
    throw a.fail('Name the domain to look at, e.g. `sources techradar.com`.');
  if (extra.length > 0) throw a.fail('`sources` takes one domain.');
  const domain = typed === undefined ? undefined : normaliseDomain(typed);
  if (typed !== undefined && domain === undefined) {
    throw a.fail(`“${escapeMrkdwn(typed.slice(0, 80))}” is not a domain; write it like \`techradar.com\`.`);
  }
  const limit = a.flags.int(1, 500, 'limit');
  a.flags.rejectUnknown();
  const brand = await a.ctx.resolveBrand(a.brandToken);
  let chosen = domain;
  let others: string[] = [];
  if (chosen === undefined) {
    // The View menu reaches sources from views that name no domain: open on the domain that
    // cites the brand's market most (the heatmap ranks them), and offer the next few.
    const heatmap = await a.ctx.deps.api.getCitationHeatmap({ brandId: brand.id });
    [chosen, ...others] = domainsByCitations(heatmap);
    others = others.slice(0, OTHER_DOMAINS);
  }
  const switcher = citationSwitcher({
    brandId: brand.id,
    current: 'sources',
    domain: chosen,
    otherDomains: others,
  });
  if (chosen === undefined) {
    const share = commandText('citations', brand.id, ['sources'], { 'most-cited': true });
    await a.ctx.respond(withShareButton(noSourceDomainsReply(brand), share, [switcher]));
    return;
  }
  let reply: Reply;
  try {
    const response = await a.ctx.deps.api.getCitationSources({
      brandId: brand.id,
      domain: chosen,
      ...(limit !== undefined ? { limit } : {}),
    });
    const note =
      domain === undefined
        ? mrkdwn`:trophy: The domain AI answers cite most for *${escapeMrkdwn(brand.name)}* and its competitors${others.length > 0 ? mrkdwn`; the View menu below has the next ${others.length}` : mrkdwn``}.`
        : undefined;
    reply = citationsSourcesReply({ brand, response, note });
  } catch (err) {
    // docs/api.md §7: 404 = no citations for the domain.
    if (!(err instanceof NotFoundError)) throw err;
    reply = noSourceCitationsReply(brand, chosen);
  }
  await a.ctx.respond(
    withShareButton(reply, commandText('citations', brand.id, ['sources', chosen], { limit }), [switcher]),
  );
}
