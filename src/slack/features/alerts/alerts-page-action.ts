/** Previous/Next on an alert history (`vis:alerts:page:prev|next`): that page replaces the message. */
import type { ActionHandler } from '../../actions/action-handler.js';
import { valueFields } from '../../actions/action-value-fields.js';
import { parseActionValue } from '../../actions/parse-action-value.js';
import { alertsPage } from './alerts-page.js';
import { ALERT_FILTERS, ALERTS_PAGE_ACTION } from './alerts-view.js';

export const alertsPageAction: ActionHandler = {
  prefix: ALERTS_PAGE_ACTION,
  async run(ctx) {
    const v = valueFields(parseActionValue(ctx.action.value));
    // Every field is checked before the brand is looked up: a forged value costs no API call.
    const page = {
      filter: v.oneOf('filter', ALERT_FILTERS),
      days: v.int('days', 1, 365),
      offset: v.int('offset', 0, 1_000_000),
    };
    const brand = await ctx.resolveBrand(v.string('brandId'));
    const reply = await alertsPage(ctx.deps, ctx.client, brand, page);
    await ctx.respond({ ...reply, replaceOriginal: true });
  },
};
