/** `citations <brand> queries`: GET /get-citations (view=queries). */

import { commandText } from '../../commands/args/command-text.js';
import { withShareButton } from '../../commands/args/with-share-button.js';
import { citationSwitcher } from './citation-switcher.js';
import { type CitationViewArgs, noExtraWords } from './citation-view-args.js';
import { citationsQueriesReply } from './citations-queries-view.js';

export async function runCitationsQueries(a: CitationViewArgs): Promise<void> {
  noExtraWords(a, 'queries');
  a.flags.rejectUnknown();
  const brand = await a.ctx.resolveBrand(a.brandToken);
  const response = await a.ctx.deps.api.getCitationQueries({ brandId: brand.id });
  const reply = citationsQueriesReply({ brand, response });
  await a.ctx.respond(
    withShareButton(reply, commandText('citations', brand.id, ['queries']), [
      citationSwitcher({ brandId: brand.id, current: 'queries' }),
    ]),
  );
}
