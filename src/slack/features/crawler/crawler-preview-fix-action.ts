/**
 * A "Preview fix" button on the Access tab (`vis:crawler:preview-fix:<row>`, value
 * `{brandId, findingId}`): the same request and the same reply as typing `crawler <brand>
 * preview-fix <finding id>`, without anybody copying the id. The answer is a new message:
 * the Access listing stays where it was. (It does not go through the command registry,
 * which gathers this feature: that would be an import cycle.)
 */

import type { ActionHandler } from '../../actions/action-handler.js';
import { valueFields } from '../../actions/action-value-fields.js';
import { parseActionValue } from '../../actions/parse-action-value.js';
import { fixPreviewReply } from './crawler-preview-fix.js';
import { CRAWLER_PREVIEW_FIX_ACTION } from './crawler-tab-view.js';

export const crawlerPreviewFixAction: ActionHandler = {
  prefix: CRAWLER_PREVIEW_FIX_ACTION,
  async run(ctx) {
    const v = valueFields(parseActionValue(ctx.action.value));
    const findingId = v.string('findingId');
    const brand = await ctx.resolveBrand(v.string('brandId'));
    const payload = await ctx.deps.api.previewAccessFix({ brandId: brand.id, findingId });
    await ctx.respond({ ...fixPreviewReply(brand, payload), replaceOriginal: false });
  },
};
