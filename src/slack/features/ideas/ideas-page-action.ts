/** Previous/Next on a content ideas list (`vis:ideas:page:prev|next`): fetches that page and replaces the message. */

import type { ActionHandler } from '../../actions/action-handler.js';
import { valueFields } from '../../actions/action-value-fields.js';
import { parseActionValue } from '../../actions/parse-action-value.js';
import { DEFAULT_IDEAS_PAGE, ideasPage } from './ideas-page.js';
import { IDEAS_PAGE_ACTION } from './ideas-view.js';

const STATUSES = ['active', 'dismissed', 'implemented', 'all'] as const;

export const ideasPageAction: ActionHandler = {
  prefix: IDEAS_PAGE_ACTION,
  async run(ctx) {
    const v = valueFields(parseActionValue(ctx.action.value));
    // Every field is checked before the brand is looked up: a forged value costs no API call.
    const page = {
      status: v.oneOf('status', STATUSES),
      offset: v.int('offset', 0, 1_000_000_000),
      limit: v.optionalInt('limit', 1, 200) ?? DEFAULT_IDEAS_PAGE,
    };
    const brand = await ctx.resolveBrand(v.string('brandId'));
    const reply = await ideasPage(ctx.deps, brand, page);
    await ctx.respond({ ...reply, replaceOriginal: true });
  },
};
