/** `crawler <brand> submit-status`: GET /crawler/submit-to-search/status. */

import { commandText } from '../../commands/args/command-text.js';
import { withShareButton } from '../../commands/args/with-share-button.js';
import { crawlerPayloadReply } from './crawler-tab-view.js';
import { type CrawlerViewArgs, noRange } from './crawler-view-args.js';

export async function runCrawlerSubmitStatus(a: CrawlerViewArgs): Promise<void> {
  noRange(a);
  if (a.operands.length > 0) throw a.fail('`submit-status` takes no more words.');
  a.flags.rejectUnknown();
  const brand = await a.ctx.resolveBrand(a.brandToken);
  const payload = await a.ctx.deps.api.getSubmitToSearchStatus({ brandId: brand.id });
  const reply = crawlerPayloadReply({ brand, title: 'Submit-to-search status', payload });
  await a.ctx.respond(withShareButton(reply, commandText('crawler', brand.id, ['submit-status'])));
}
