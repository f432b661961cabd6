/**
 * `crawler <brand> preview-fix <finding id>`: POST /crawler/access/preview-fix. Only a
 * preview (docs/api.md §4.10: no public endpoint applies fixes), so it needs no admin and is
 * not refused for a viewer brand: the service's answer is relayed.
 */

import { mrkdwn } from '../../../messages/mrkdwn.js';
import type { Reply } from '../../../messages/reply.js';
import { inlineText } from '../../views/link-or-text.js';
import { crawlerPayloadReply } from './crawler-tab-view.js';
import { type CrawlerViewArgs, noRange } from './crawler-view-args.js';
import { isObj } from './payload-values.js';

export async function runCrawlerPreviewFix(a: CrawlerViewArgs): Promise<void> {
  noRange(a);
  a.flags.rejectUnknown();
  const [findingId, ...extra] = a.operands;
  if (findingId === undefined) {
    throw a.fail('Name the finding to preview; `crawler <brand> access` lists the findings with their ids.');
  }
  if (extra.length > 0) throw a.fail('`preview-fix` takes one finding id.');
  const brand = await a.ctx.resolveBrand(a.brandToken);
  const payload = await a.ctx.deps.api.previewAccessFix({ brandId: brand.id, findingId });
  await a.ctx.respond(fixPreviewReply(brand, payload));
}

function diffFirst({ diff, ...rest }: Record<string, unknown>): Record<string, unknown> {
  return { diff, ...rest };
}

/** The answer to a fix preview, typed or from an Access tab "Preview fix" button. */
export function fixPreviewReply(
  brand: { id: string; name: string },
  payload: Record<string, unknown>,
): Reply {
  const title = typeof payload['title'] === 'string' ? payload['title'].trim() : '';
  // The change itself first, then the whole file before and after it.
  const preview = payload['preview'];
  const shown = isObj(preview) && 'diff' in preview ? { ...payload, preview: diffFirst(preview) } : payload;
  return crawlerPayloadReply({
    brand,
    title: 'Access fix preview',
    // The finding's id means nothing to a reader; its title names what the fix is for.
    lead: mrkdwn`:mag: Preview of the fix${title === '' ? mrkdwn`` : mrkdwn` for *${inlineText(title, 200)}*`}. Nothing was changed: make the change on your site.`,
    payload: shown,
    // The lead says it: a title, and "not applied", are not repeated below it.
    skipKeys: [...(title === '' ? [] : ['title']), ...(payload['applied'] === false ? ['applied'] : [])],
  });
}
