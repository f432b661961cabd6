/** `citations <brand> feed [--days-back N]`: GET /get-citations (view=feed). */

import { commandText } from '../../commands/args/command-text.js';
import { withShareButton } from '../../commands/args/with-share-button.js';
import { citationSwitcher } from './citation-switcher.js';
import { type CitationViewArgs, noExtraWords } from './citation-view-args.js';
import { citationsFeedReply } from './citations-feed-view.js';

/** Enough events to count every type in one request (docs/api.md §8: citations `limit` ≤ 500). */
const FEED_LIMIT = 500;

export async function runCitationsFeed(a: CitationViewArgs): Promise<void> {
  noExtraWords(a, 'feed');
  const daysBack = a.flags.int(1, 30, 'days-back', 'days_back', 'days');
  a.flags.rejectUnknown();
  const brand = await a.ctx.resolveBrand(a.brandToken);
  const response = await a.ctx.deps.api.getCitationFeed({
    brandId: brand.id,
    limit: FEED_LIMIT,
    ...(daysBack !== undefined ? { daysBack } : {}),
  });
  const reply = citationsFeedReply({ brand, daysBack, response });
  await a.ctx.respond(
    withShareButton(reply, commandText('citations', brand.id, ['feed'], { 'days-back': daysBack }), [
      citationSwitcher({ brandId: brand.id, current: 'feed', days: daysBack }),
    ]),
  );
}
