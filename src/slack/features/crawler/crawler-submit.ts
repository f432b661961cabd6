/**
 * `crawler <brand> submit <url …>`: POST /crawler/submit-to-search. The URLs must be
 * absolute http(s) URLs (checked here, before anything is sent); Slack may hand them over
 * as `<https://…>` or `<https://…|label>`, and commas may separate them.
 */

import { escapeMrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import { auditedWrite } from '../../audited-write.js';
import { ensureCanEditBrand } from '../../permissions.js';
import { crawlerPayloadReply } from './crawler-tab-view.js';
import { type CrawlerViewArgs, noRange, shown } from './crawler-view-args.js';
import { CRAWLER_WRITES } from './crawler-writes.js';

/** The service takes at most 100 URLs per submission. */
export const MAX_SUBMIT_URLS = 100;

export function parseSubmitUrls(words: readonly string[]): { urls: string[]; bad: string[] } {
  const urls: string[] = [];
  const bad: string[] = [];
  for (const word of words.flatMap((w) => w.split(/,(?=\s*<?https?:)|,\s*$|^,/i))) {
    const text = word.trim();
    if (text === '') continue;
    const link = /^<([^|>]+)(?:\|[^>]*)?>$/.exec(text);
    const candidate = link ? link[1]! : text;
    let ok = false;
    try {
      const u = new URL(candidate);
      ok = (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
    } catch {
      ok = false;
    }
    (ok ? urls : bad).push(candidate);
  }
  return { urls: [...new Set(urls)], bad };
}

export async function runCrawlerSubmit(a: CrawlerViewArgs): Promise<void> {
  noRange(a);
  a.flags.rejectUnknown();
  const { urls, bad } = parseSubmitUrls(a.operands);
  if (bad.length > 0) {
    throw a.fail(
      `“${shown(bad[0]!)}” is not an absolute URL; write each one in full, e.g. https://example.com/pricing.`,
    );
  }
  if (urls.length === 0) throw a.fail('Name the URLs to submit, e.g. `submit https://example.com/pricing`.');
  if (urls.length > MAX_SUBMIT_URLS)
    throw a.fail(`Submit at most ${MAX_SUBMIT_URLS} URLs at a time (got ${urls.length}).`);
  const action = CRAWLER_WRITES.submit;
  await a.ctx.requireWriter(action);
  const brand = await a.ctx.resolveBrand(a.brandToken);
  const actor = { userId: a.ctx.userId, channelId: a.ctx.channelId };
  ensureCanEditBrand(a.ctx.deps, actor, brand, action);
  const payload = await auditedWrite(a.ctx.deps, actor, { brandId: brand.id, action, detail: { urls } }, () =>
    a.ctx.deps.api.submitToSearch({ brandId: brand.id, urls }, { lane: a.ctx.lane }),
  );
  const name = escapeMrkdwn(brand.name);
  await a.ctx.respond(
    crawlerPayloadReply({
      brand,
      title: 'Submitted to AI search',
      lead: mrkdwn`:outbox_tray: Submitted ${urls.length} URL${urls.length === 1 ? mrkdwn`` : mrkdwn`s`} for *${name}*.`,
      payload,
      hint: mrkdwn`Follow it with \`/visibility crawler "${name}" submit-status\`.`,
    }),
  );
}
