/**
 * Opens the settings form: from `settings` (with the command's trigger) and from the Edit
 * button of a subscription in `subscriptions` (vis:settings:edit, value {brandId}). Who may
 * not change settings is told before the form opens, not after filling it in.
 */
import type { WebClient } from '@slack/web-api';
import { fitView } from '../../../messages/block-kit-limits.js';
import { mrkdwn } from '../../../messages/mrkdwn.js';
import { UserError, UserErrorCode } from '../../../messages/user-error.js';
import type { Subscription } from '../../../store/subscriptions-repo.js';
import type { ActionHandler } from '../../actions/action-handler.js';
import { parseActionValue } from '../../actions/parse-action-value.js';
import type { SlackDeps } from '../../kit/slack-deps.js';
import { resolveSubscribedBrand } from './resolve-subscribed-brand.js';
import { settingsModal } from './settings-modal.js';
import { SUBSCRIPTION_ACTIONS } from './subscription-actions.js';
import { SUBSCRIPTION_WRITES } from './subscription-writes.js';

const EDIT_SETTINGS_ACTION = SUBSCRIPTION_ACTIONS.edit;

export async function openSettingsModal(
  o: { deps: Pick<SlackDeps, 'config'>; client: WebClient; triggerId: string | undefined },
  sub: Subscription,
): Promise<void> {
  if (!o.triggerId)
    throw new UserError(
      UserErrorCode.NoTrigger,
      mrkdwn`Slack did not allow a form to open from here; run the command instead.`,
    );
  await o.client.views.open({
    trigger_id: o.triggerId,
    view: fitView(settingsModal(sub, o.deps.config.defaultTimezone)),
  });
}

export const editSettingsButton: ActionHandler = {
  prefix: EDIT_SETTINGS_ACTION,
  async run(ctx) {
    const { brandId } = parseActionValue(ctx.action.value);
    if (typeof brandId !== 'string' || brandId === '' || !ctx.channelId)
      throw new UserError(
        UserErrorCode.StaleAction,
        mrkdwn`That button is from an older message; run the command again.`,
      );
    await ctx.requireWriter(SUBSCRIPTION_WRITES.settings);
    await openSettingsModal(ctx, await resolveSubscribedBrand(ctx.deps, ctx.channelId, brandId));
  },
};
