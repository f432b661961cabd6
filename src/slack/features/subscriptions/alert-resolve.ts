/**
 * Resolve on an alert message: a small form asks what was done (a short note, shown on the
 * alert as the resolver wrote it, escaped), then the alert is resolved like the other
 * changes in alert-owner.ts: stored once, whichever replica gets it, the message redrawn,
 * the channel told. Who may not resolve alerts is told before the form opens.
 */
import { OWNERSHIP_ACTIONS, RESOLVE_CALLBACK_ID } from '../../../messages/alert-state-blocks.js';
import { fitView } from '../../../messages/block-kit-limits.js';
import type { ModalView } from '../../../messages/block-kit-types.js';
import { mrkdwn } from '../../../messages/mrkdwn.js';
import { UserError, UserErrorCode } from '../../../messages/user-error.js';
import type { ActionHandler } from '../../actions/action-handler.js';
import { textValue } from '../../submissions/read-input.js';
import type { SubmissionHandler } from '../../submissions/submission-handler.js';
import { INPUT_ACTION_ID } from '../../views/brand-form-modal.js';
import {
  ALERT_WRITES,
  alertPhrase,
  alreadyHandled,
  announceAlertChange,
  clickedAlert,
} from './alert-owner.js';

const NOTE_BLOCK_ID = 'note';
/** A short note: what was done, not a report. */
const NOTE_MAX = 500;

function resolveModal(alertId: number, where: { channelId: string; ts: string }): ModalView {
  return {
    type: 'modal',
    callback_id: RESOLVE_CALLBACK_ID,
    private_metadata: JSON.stringify({ alertId, channelId: where.channelId, ts: where.ts }),
    title: { type: 'plain_text', text: mrkdwn`Resolve alert` },
    submit: { type: 'plain_text', text: mrkdwn`Resolve` },
    close: { type: 'plain_text', text: mrkdwn`Cancel` },
    blocks: [
      {
        type: 'input',
        block_id: NOTE_BLOCK_ID,
        optional: true,
        label: { type: 'plain_text', text: mrkdwn`What was done?` },
        hint: {
          type: 'plain_text',
          text: mrkdwn`Shown on the alert for everyone in the channel, e.g. “Restored the pricing page”.`,
        },
        element: {
          type: 'plain_text_input',
          action_id: INPUT_ACTION_ID,
          multiline: true,
          max_length: NOTE_MAX,
        },
      },
    ],
  };
}

export const alertResolve: ActionHandler = {
  prefix: OWNERSHIP_ACTIONS.resolve,
  async run(ctx) {
    const state = await clickedAlert(ctx.deps, ctx.action.actionId, ctx.body);
    await ctx.requireWriter(ALERT_WRITES.resolve);
    if (state.resolvedAtMs !== null)
      throw new UserError(
        UserErrorCode.AlreadyResolved,
        mrkdwn`This alert is resolved already; nothing changed.`,
      );
    if (!ctx.triggerId)
      throw new UserError(
        UserErrorCode.NoTrigger,
        mrkdwn`Slack did not allow a form to open from here; try again.`,
      );
    await ctx.client.views.open({
      trigger_id: ctx.triggerId,
      view: fitView(resolveModal(state.id, { channelId: state.channelId, ts: state.messageTs })),
    });
  },
};

function readMetadata(text: string): { alertId: number; channelId: string; ts: string } | null {
  try {
    const v = JSON.parse(text) as { alertId?: unknown; channelId?: unknown; ts?: unknown };
    if (typeof v.alertId === 'number' && typeof v.channelId === 'string' && typeof v.ts === 'string')
      return { alertId: v.alertId, channelId: v.channelId, ts: v.ts };
  } catch {
    // Not ours: answered below as a form from elsewhere.
  }
  return null;
}

export const resolveSubmission: SubmissionHandler = {
  callbackId: RESOLVE_CALLBACK_ID,
  async run(ctx) {
    await ctx.requireWriter(ALERT_WRITES.resolve);
    const meta = readMetadata(ctx.privateMetadata);
    const state = meta ? await ctx.deps.store.alertStates.get(meta.alertId) : null;
    // The form names the alert and its message: both must agree with the store.
    if (!meta || !state || state.channelId !== meta.channelId || state.messageTs !== meta.ts)
      throw new UserError(
        UserErrorCode.StaleAction,
        mrkdwn`This form is not for an alert I know; nothing changed.`,
      );
    const key = (ctx.body as { trigger_id?: unknown }).trigger_id;
    if (await alreadyHandled(ctx.deps, typeof key === 'string' ? `submit:${key}` : undefined))
      return { close: true };
    const note = textValue(ctx.values, NOTE_BLOCK_ID).slice(0, NOTE_MAX);
    const updated = await ctx.deps.store.alertStates.resolve(state.id, {
      byUserId: ctx.userId,
      note,
      atMs: ctx.deps.clock.now(),
    });
    if (!updated)
      return { errors: { [NOTE_BLOCK_ID]: 'Someone resolved this alert meanwhile; nothing changed.' } };
    return {
      close: true,
      afterAck: async () =>
        announceAlertChange(ctx, {
          action: 'alert.resolve',
          state: updated,
          did: mrkdwn`resolved ${await alertPhrase(ctx.deps, updated)}.`,
          undo: mrkdwn`*Reopen* on the alert opens it again.`,
          reply: mrkdwn``,
        }),
    };
  },
};
