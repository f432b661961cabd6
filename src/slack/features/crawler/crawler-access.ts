/** `crawler <brand> access [range]`: GET /crawler/access, findings first. */

import { commandText } from '../../commands/args/command-text.js';
import { withShareButton } from '../../commands/args/with-share-button.js';
import { rangeWord } from './crawler-range.js';
import { crawlerSwitcher } from './crawler-switcher.js';
import { crawlerPayloadReply, previewFixButtons } from './crawler-tab-view.js';
import type { CrawlerViewArgs } from './crawler-view-args.js';

export async function runCrawlerAccess(a: CrawlerViewArgs): Promise<void> {
  if (a.operands.length > 0) throw a.fail('`access` takes no more words.');
  a.flags.rejectUnknown();
  const brand = await a.ctx.resolveBrand(a.brandToken);
  const payload = await a.ctx.deps.api.getCrawlerAccess({ brandId: brand.id, ...a.range });
  const reply = crawlerPayloadReply({
    brand,
    title: 'AI crawler access',
    payload,
    actions: previewFixButtons(brand.id, payload),
  });
  await a.ctx.respond(
    withShareButton(reply, commandText('crawler', brand.id, ['access', ...rangeWord(a.range)]), [
      crawlerSwitcher(brand.id, { tab: 'access' }, a.range),
    ]),
  );
}
