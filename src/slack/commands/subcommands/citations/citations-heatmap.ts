/** `citations <brand> heatmap`: GET /get-citations (view=heatmap). */
import { citationsHeatmapReply } from '../../../views/citations-heatmap-view.js';
import { commandText } from '../args/command-text.js';
import { withShareButton } from '../args/with-share-button.js';
import { type CitationViewArgs, noExtraWords } from './citation-view-args.js';

export async function runCitationsHeatmap(a: CitationViewArgs): Promise<void> {
  noExtraWords(a, 'heatmap');
  a.flags.rejectUnknown();
  const brand = await a.ctx.resolveBrand(a.brandToken);
  const response = await a.ctx.deps.api.getCitationHeatmap({ brandId: brand.id }, { lane: a.ctx.lane });
  const reply = citationsHeatmapReply({ brand, response });
  await a.ctx.respond(withShareButton(reply, commandText('citations', brand.id, ['heatmap'])));
}
