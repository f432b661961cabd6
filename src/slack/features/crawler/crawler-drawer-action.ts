/**
 * A row's button on a crawler listing (`vis:crawler:drawer:<row>`): the page, path or bot
 * drawer (crawler-details.ts) as a new message, so the listing stays where it was.
 */

import type { ActionHandler } from '../../actions/action-handler.js';
import { valueFields } from '../../actions/action-value-fields.js';
import { parseActionValue } from '../../actions/parse-action-value.js';
import { crawlerDetailsReply, DRAWER_KINDS } from './crawler-details.js';
import { CRAWLER_DRAWER_ACTION } from './crawler-tab-view.js';

export const crawlerDrawerAction: ActionHandler = {
  prefix: CRAWLER_DRAWER_ACTION,
  async run(ctx) {
    const v = valueFields(parseActionValue(ctx.action.value));
    const kind = v.oneOf('kind', DRAWER_KINDS);
    const entityId = v.string('entityId');
    const range = v.optionalRange('range');
    const brand = await ctx.resolveBrand(v.string('brandId'));
    const reply = await crawlerDetailsReply(ctx.deps, brand, { kind, entityId, range });
    await ctx.respond({ ...reply, replaceOriginal: false });
  },
};
