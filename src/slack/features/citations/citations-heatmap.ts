/** `citations <brand> heatmap`: GET /get-citations (view=heatmap). */

import { commandText } from '../../commands/args/command-text.js';
import { withShareButton } from '../../commands/args/with-share-button.js';
import { citationSwitcher } from './citation-switcher.js';
import { type CitationViewArgs, noExtraWords } from './citation-view-args.js';
import { citationsHeatmapReply } from './citations-heatmap-view.js';

export async function runCitationsHeatmap(a: CitationViewArgs): Promise<void> {
  noExtraWords(a, 'heatmap');
  a.flags.rejectUnknown();
  const brand = await a.ctx.resolveBrand(a.brandToken);
  const response = await a.ctx.deps.api.getCitationHeatmap({ brandId: brand.id });
  const reply = citationsHeatmapReply({ brand, response });
  await a.ctx.respond(
    withShareButton(reply, commandText('citations', brand.id, ['heatmap']), [
      citationSwitcher({ brandId: brand.id, current: 'heatmap' }),
    ]),
  );
}
