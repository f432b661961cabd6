/**
 * Assign, Resolve and Reopen on an alert message (alert-state-blocks.ts draws them). The
 * state lives in the store, so whichever replica gets the click changes it and redraws the
 * message by the channel and ts the store keeps. Each is a write like changing a
 * subscription (SLACK_ADMIN_USERS decides), audited, and told to the channel in a note
 * naming who did it.
 *
 * A click acts only on the alert it was drawn for: the message clicked must be that alert's
 * channel message or its assignee's copy. A click is acted on once: the same request
 * replayed (its trigger_id) changes nothing, and every change is made only from the state
 * it expects (a second Resolve is told who resolved it first).
 */

import { OWNERSHIP_ACTIONS } from '../../../messages/alert-state-blocks.js';
import {
  escapeMrkdwn,
  type Mrkdwn,
  mrkdwn,
  mrkdwnLink,
  slackDate,
  userMention,
} from '../../../messages/mrkdwn.js';
import { textReply } from '../../../messages/reply.js';
import { UserError, UserErrorCode } from '../../../messages/user-error.js';
import type { AlertState } from '../../../store/alert-states-repo.js';
import { REDELIVERY_WINDOW_MS as REMEMBER_REQUESTS_MS } from '../../../store/handled-requests-repo.js';
import { settleAlertState, showAlertState } from '../../../use-cases/show-alert-state.js';
import type { ActionContext, ActionHandler } from '../../actions/action-handler.js';
import type { SlackDeps } from '../../kit/slack-deps.js';
import { postChannelNote, withNoteOutcome } from './post-channel-note.js';

export const ALERT_WRITES = {
  assign: 'assign alerts',
  resolve: 'resolve alerts',
  reopen: 'reopen alerts',
} as const;

const USER_ID = /^[UW][A-Z0-9]{1,30}$/;

/** The alert id an action_id carries after its prefix (`vis:alert:resolve:12`), if any. */
function idSuffix(actionId: string): number | null {
  const m = /:(\d{1,15})$/.exec(actionId);
  return m ? Number(m[1]) : null;
}

/** Where the clicked button is: the message's channel and ts. */
function clickedAt(body: unknown): { channelId: string; ts: string } | null {
  const b = body as { container?: { channel_id?: unknown; message_ts?: unknown } };
  const channelId = b.container?.channel_id;
  const ts = b.container?.message_ts;
  return typeof channelId === 'string' && typeof ts === 'string' ? { channelId, ts } : null;
}

const drawnOn = (state: AlertState, at: { channelId: string; ts: string }) =>
  (state.channelId === at.channelId && state.messageTs === at.ts) ||
  (state.dmChannelId === at.channelId && state.dmTs === at.ts);

/** The stored alert this click is about; a UserError when it is not one (stale, forged, unknown). */
export async function clickedAlert(
  deps: Pick<SlackDeps, 'store'>,
  actionId: string,
  body: unknown,
): Promise<AlertState> {
  const at = clickedAt(body);
  const id = idSuffix(actionId);
  const state =
    id !== null
      ? await deps.store.alertStates.get(id)
      : at
        ? await deps.store.alertStates.findByMessage(at.channelId, at.ts)
        : null;
  if (!state || !at || !drawnOn(state, at))
    throw new UserError(
      UserErrorCode.StaleAction,
      mrkdwn`That button does not belong to an alert I know (it may be older than alert owners, or from elsewhere); nothing changed.`,
    );
  return state;
}

/** True when this very request was acted on before (a replay); remembers it otherwise. */
export async function alreadyHandled(
  deps: Pick<SlackDeps, 'store' | 'clock'>,
  key: string | undefined,
): Promise<boolean> {
  if (!key) return false;
  return deps.store.handledRequests.remember(`alert-state:${key}`, deps.clock.now(), REMEMBER_REQUESTS_MS);
}

const triggerOf = (body: unknown): string | undefined => {
  const t = (body as { trigger_id?: unknown }).trigger_id;
  return typeof t === 'string' ? t : undefined;
};

/** "an alert for *Acme*", linked to the message when its permalink is known. */
export async function alertPhrase(deps: Pick<SlackDeps, 'store'>, state: AlertState): Promise<Mrkdwn> {
  const what = state.permalink ? mrkdwnLink(state.permalink, 'an alert') : mrkdwn`an alert`;
  const sub = await deps.store.subscriptions.get(state.channelId, state.brandId);
  return sub ? mrkdwn`${what} for *${escapeMrkdwn(sub.brandName)}*` : what;
}

/** What `state` already says, for a click that asked for what is already so. */
function nothingChanged(state: AlertState, wanted: 'assign' | 'resolve' | 'reopen'): UserError {
  if (state.resolvedAtMs !== null && state.resolvedBy && wanted !== 'reopen')
    return new UserError(
      UserErrorCode.AlreadyResolved,
      mrkdwn`This alert was already resolved by ${userMention(state.resolvedBy)} ${slackDate(state.resolvedAtMs)}; nothing changed. *Reopen* it first to change it.`,
    );
  if (wanted === 'reopen')
    return new UserError(UserErrorCode.NotResolved, mrkdwn`This alert is open already; nothing changed.`);
  return new UserError(
    UserErrorCode.AlreadyAssigned,
    mrkdwn`This alert is already assigned to ${userMention(state.assigneeId ?? '')}; nothing changed.`,
  );
}

/** Audits the change, redraws the alert, tells the channel and the person who clicked. */
export async function announceAlertChange(
  o: { deps: SlackDeps; client: ActionContext['client']; userId: string; respond?: ActionContext['respond'] },
  change: {
    action: string;
    state: AlertState;
    did: Mrkdwn;
    undo: Mrkdwn;
    reply: Mrkdwn;
    newAssignee?: boolean;
  },
): Promise<void> {
  const { deps, client, userId } = o;
  const { state } = change;
  await deps.auditLog.record({
    atMs: deps.clock.now(),
    userId,
    channelId: state.channelId,
    brandId: state.brandId,
    action: change.action,
    detail: { alertId: state.id, messageTs: state.messageTs, assigneeId: state.assigneeId },
    result: 'ok',
  });
  const show = { store: deps.store, web: client, logger: deps.logger };
  await showAlertState(show, state, { newAssignee: change.newAssignee ?? false, settle: false });
  const noteFailure = await postChannelNote(client, deps.logger, state.channelId, {
    by: userId,
    did: change.did,
    undo: change.undo,
  });
  if (o.respond)
    await o.respond(withNoteOutcome(textReply(change.reply, { replaceOriginal: false }), noteFailure));
  // A change another replica made meanwhile is drawn after this one's note, so the
  // channel's notes keep the order of the changes.
  await settleAlertState(show, state);
}

export const alertAssign: ActionHandler = {
  prefix: OWNERSHIP_ACTIONS.assign,
  async run(ctx) {
    const state = await clickedAlert(ctx.deps, ctx.action.actionId, ctx.body);
    await ctx.requireWriter(ALERT_WRITES.assign);
    const assignee = ctx.action.selectedUser;
    if (!assignee || !USER_ID.test(assignee))
      throw new UserError(
        UserErrorCode.BadArguments,
        mrkdwn`Pick a person in the *Assign* menu; nothing changed.`,
      );
    if (await alreadyHandled(ctx.deps, triggerOf(ctx.body)))
      throw new UserError(UserErrorCode.Replayed, mrkdwn`That click was already handled; nothing changed.`);
    const now = ctx.deps.clock.now();
    const updated = await ctx.deps.store.alertStates.assign(state.id, {
      assigneeId: assignee,
      byUserId: ctx.userId,
      atMs: now,
    });
    if (!updated) throw nothingChanged((await ctx.deps.store.alertStates.get(state.id)) ?? state, 'assign');
    await announceAlertChange(ctx, {
      action: 'alert.assign',
      state: updated,
      newAssignee: true,
      did: mrkdwn`assigned ${await alertPhrase(ctx.deps, updated)} to ${userMention(assignee)}.`,
      undo: mrkdwn`Anyone can hand it on with its *Assign* menu, or *Resolve* it once it is fixed.`,
      reply: mrkdwn`:bust_in_silhouette: The alert is now assigned to ${userMention(assignee)}, who has a copy in their direct messages.`,
    });
  },
};

export const alertReopen: ActionHandler = {
  prefix: OWNERSHIP_ACTIONS.reopen,
  async run(ctx) {
    const state = await clickedAlert(ctx.deps, ctx.action.actionId, ctx.body);
    await ctx.requireWriter(ALERT_WRITES.reopen);
    if (await alreadyHandled(ctx.deps, triggerOf(ctx.body)))
      throw new UserError(UserErrorCode.Replayed, mrkdwn`That click was already handled; nothing changed.`);
    const updated = await ctx.deps.store.alertStates.reopen(state.id, {
      byUserId: ctx.userId,
      atMs: ctx.deps.clock.now(),
    });
    if (!updated) throw nothingChanged(state, 'reopen');
    await announceAlertChange(ctx, {
      action: 'alert.reopen',
      state: updated,
      did: mrkdwn`reopened ${await alertPhrase(ctx.deps, updated)}.`,
      undo: mrkdwn`*Resolve* on the alert closes it again.`,
      reply: mrkdwn`:arrows_counterclockwise: The alert is open again.`,
    });
  },
};
