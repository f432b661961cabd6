/** Previous/Next on a citation list (`vis:citations:page:prev|next`): same filters, another offset, same message. */

import type { ActionHandler } from '../../actions/action-handler.js';
import { valueFields } from '../../actions/action-value-fields.js';
import { parseActionValue } from '../../actions/parse-action-value.js';
import { citationsListPage, DEFAULT_CITATIONS_PAGE } from './citations-list.js';
import { CITATIONS_PAGE_ACTION } from './citations-list-view.js';

export const citationsPageAction: ActionHandler = {
  prefix: CITATIONS_PAGE_ACTION,
  async run(ctx) {
    const v = valueFields(parseActionValue(ctx.action.value));
    // Every field is checked before the brand is looked up: a forged value costs no API call.
    const page = {
      offset: v.int('offset', 0, 1_000_000_000),
      limit: v.optionalInt('limit', 1, 500) ?? DEFAULT_CITATIONS_PAGE,
      domain: v.optionalString('domain'),
      prompt: v.optionalString('prompt'),
      tags: v.optionalStrings('tags'),
    };
    const brand = await ctx.resolveBrand(v.string('brandId'));
    const reply = await citationsListPage(ctx.deps, brand, page);
    await ctx.respond({ ...reply, replaceOriginal: true });
  },
};
