/**
 * An alert's overflow menu in a grouped alert message (vis:alert:menu:<row>): "Acknowledge"
 * marks that one alert, "Snooze" quiets its kind like the Snooze button does. The menu sits
 * on the alert's own row, so the row's block id says which alert was meant.
 */
import { ALERT_ACTIONS, parseMenuValue } from '../../../messages/alert-message.js';
import { mrkdwn } from '../../../messages/mrkdwn.js';
import { UserError, UserErrorCode } from '../../../messages/user-error.js';
import type { ActionHandler } from '../../actions/action-handler.js';
import { acknowledgeAlertRow, clickedMessage } from './alert-ack.js';
import { snoozeAlertKind } from './alert-snooze.js';

export const alertMenu: ActionHandler = {
  prefix: ALERT_ACTIONS.menu,
  async run(ctx) {
    const choice = parseMenuValue(ctx.action.selectedOption);
    if (choice?.do === 'ack') return acknowledgeAlertRow(ctx);
    if (choice?.do === 'snooze') {
      const brandId = choice.brandId ?? clickedMessage(ctx.body)?.brandId;
      if (brandId) return snoozeAlertKind(ctx, brandId, choice.kind);
    }
    throw new UserError(
      UserErrorCode.StaleAction,
      mrkdwn`That menu is from an older message; run the command again.`,
    );
  },
};
