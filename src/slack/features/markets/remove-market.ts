/**
 * The confirmed click on a Remove market button (Slack showed its `confirm` dialog first):
 * only here is the DELETE sent. Permissions are checked again at the click: the message
 * may be old, or shared with people who may not make changes.
 */

import { mrkdwn } from '../../../messages/mrkdwn.js';
import { UserError, UserErrorCode } from '../../../messages/user-error.js';
import type { ActionHandler } from '../../actions/action-handler.js';
import { parseActionValue } from '../../actions/parse-action-value.js';
import { auditedWrite } from '../../kit/audited-write.js';
import { BRAND_WRITES } from '../../kit/brand-writes.js';
import { ensureCanEditBrand } from '../../kit/permissions.js';
import { MARKET_ACTIONS, marketRemovedReply } from './markets-view.js';

/** Only our own ephemeral answer is replaced; a message in the channel stays for everyone. */
function clickedEphemeral(body: unknown): boolean {
  const container = (body as { container?: { is_ephemeral?: unknown } } | undefined)?.container;
  return container?.is_ephemeral === true;
}

export const removeMarket: ActionHandler = {
  prefix: MARKET_ACTIONS.remove,
  async run(ctx) {
    const value = parseActionValue(ctx.action.value);
    const { brandId, marketId } = value;
    if (typeof brandId !== 'string' || typeof marketId !== 'string') {
      throw new UserError(
        UserErrorCode.StaleAction,
        mrkdwn`That button is from an older message; run the command again.`,
      );
    }
    const location = typeof value['location'] === 'string' ? value['location'] : undefined;
    const action = BRAND_WRITES.removeMarket;
    await ctx.requireWriter(action);
    const brand = await ctx.resolveBrand(brandId);
    const actor = { userId: ctx.userId, channelId: ctx.channelId };
    await ensureCanEditBrand(ctx.deps, actor, brand, action);
    await auditedWrite(
      ctx.deps,
      actor,
      { brandId, action, detail: { marketId, location: location ?? null } },
      () => ctx.deps.api.removeMarket({ brandId, marketId }),
    );
    ctx.deps.brandCache.invalidate();
    await ctx.respond({
      ...marketRemovedReply(brand, location ?? marketId),
      replaceOriginal: clickedEphemeral(ctx.body),
    });
  },
};
