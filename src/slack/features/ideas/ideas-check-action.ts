/**
 * *Check now* on a content-ideas refresh message (`vis:ideas:check`, value {brandId,
 * limit}): looks at `meta.generation_status` once and finishes the message if the run is
 * over, the same message the watch would have written. It needs nothing from the process
 * that started the refresh, so it works on any replica, and after the one that was
 * watching stopped, which is what it is for.
 */
import type { ActionHandler } from '../../actions/action-handler.js';
import { valueFields } from '../../actions/action-value-fields.js';
import { parseActionValue } from '../../actions/parse-action-value.js';
import { DEFAULT_IDEAS_PAGE } from './ideas-page.js';
import { IDEAS_CHECK_ACTION, ideasRefreshCheckedReply, ideasRefreshDoneReply } from './ideas-refresh-view.js';

export const ideasCheckAction: ActionHandler = {
  prefix: IDEAS_CHECK_ACTION,
  async run(ctx) {
    const v = valueFields(parseActionValue(ctx.action.value));
    // Checked before the brand is looked up: a forged value costs no API call.
    const limit = v.optionalInt('limit', 1, 200) ?? DEFAULT_IDEAS_PAGE;
    const brand = await ctx.resolveBrand(v.string('brandId'));
    const response = await ctx.deps.api.getContentIdeas({ brandId: brand.id, status: 'active', limit });
    await ctx.respond(
      response.meta?.generation_status === 'generating'
        ? ideasRefreshCheckedReply(brand, ctx.deps.clock.now(), limit)
        : ideasRefreshDoneReply(brand, response, limit),
    );
  },
};
