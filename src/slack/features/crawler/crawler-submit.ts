/**
 * `crawler <brand> submit <url …>`: POST /crawler/submit-to-search. The URLs must be
 * absolute http(s) URLs on the brand's own website (checked here, before anything is
 * sent: the service accepts any URL and only fails it later); Slack may hand them over as
 * `<https://…>` or `<https://…|label>`, and commas may separate them.
 */

import { possessive } from '../../../figures/plural.js';
import { escapeMrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import { auditedWrite } from '../../kit/audited-write.js';
import { ensureCanEditBrand } from '../../kit/permissions.js';
import { crawlerPayloadReply } from './crawler-tab-view.js';
import { type CrawlerViewArgs, noRange, shown } from './crawler-view-args.js';
import { CRAWLER_WRITES } from './crawler-writes.js';

/** The service takes at most 100 URLs per submission. */
const MAX_SUBMIT_URLS = 100;

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

/**
 * The domain a brand's website is on, from the brand's `website` (with or without a
 * scheme), `www.` dropped so the bare domain and every subdomain count as the site;
 * undefined when the brand has no usable website.
 */
export function brandDomain(website: string | null | undefined): string | undefined {
  const text = website?.trim();
  if (!text) return undefined;
  try {
    const host = new URL(/^[a-z][a-z\d+.-]*:\/\//i.test(text) ? text : `https://${text}`).hostname;
    return host.replace(/^www\./, '').replace(/\.$/, '') || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether `url` is on `domain` or one of its subdomains. Hostnames come from the URL
 * parser (lower-cased, punycode, no port or credentials), never from string prefixes:
 * `https://acme.com.evil.example` and `https://evil.example/?acme.com` are not on acme.com.
 */
export function isOnDomain(url: string, domain: string): boolean {
  const host = new URL(url).hostname.replace(/\.$/, '');
  return host === domain || host.endsWith(`.${domain}`);
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
  const domain = brandDomain(brand.website);
  // No website on record: nothing to compare with, so the service decides.
  const offSite = domain === undefined ? [] : urls.filter((u) => !isOnDomain(u, domain));
  if (domain !== undefined && offSite.length > 0) {
    const others = offSite.length > 1 ? mrkdwn` (and ${offSite.length - 1} more)` : mrkdwn``;
    throw a.fail(
      mrkdwn`“${shown(offSite[0]!)}”${others} is not on ${escapeMrkdwn(possessive(brand.name))} website, *${escapeMrkdwn(domain)}*. Submit only pages of ${escapeMrkdwn(domain)} or its subdomains; nothing was sent.`,
    );
  }
  const actor = { userId: a.ctx.userId, channelId: a.ctx.channelId };
  await ensureCanEditBrand(a.ctx.deps, actor, brand, action);
  const payload = await auditedWrite(a.ctx.deps, actor, { brandId: brand.id, action, detail: { urls } }, () =>
    a.ctx.deps.api.submitToSearch({ brandId: brand.id, urls }),
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
