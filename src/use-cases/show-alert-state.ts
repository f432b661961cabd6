/**
 * Shows an alert's stored state where people see the alert: the channel message is redrawn
 * in place (found by the channel and ts the store keeps, so the replica that handles a
 * click need not be the one that posted it), and so is the assignee's copy in their direct
 * messages; a new assignee is sent that copy. Used by the Slack buttons and by the relay
 * when an alert that happened before is posted again.
 *
 * The message is redrawn from what Slack holds now (another feature may have edited it, an
 * Acknowledge line), else from the stored post; the state is always the store's.
 */
import type { WebClient } from '@slack/web-api';
import type { Logger } from '../logger.js';
import { type AlertStateView, assigneeCopyBlocks, withAlertState } from '../messages/alert-state-blocks.js';
import type { KnownBlock } from '../messages/block-kit-types.js';
import { channelMention, type Mrkdwn, mrkdwn, mrkdwnLink, userMention } from '../messages/mrkdwn.js';
import type { AlertState } from '../store/alert-states-repo.js';
import type { Store } from '../store/store.js';

interface ShowAlertDeps {
  store: Pick<Store, 'alertStates' | 'outbox'>;
  web: WebClient;
  logger: Pick<Logger, 'warn'>;
}

/** What the blocks show: the state, and its earlier occurrence when it recurs. */
async function alertStateView(store: Pick<Store, 'alertStates'>, state: AlertState): Promise<AlertStateView> {
  const earlier = state.previousId === null ? null : await store.alertStates.get(state.previousId);
  return {
    id: state.id,
    assigneeId: state.assigneeId,
    assignedBy: state.assignedBy,
    assignedAtMs: state.assignedAtMs,
    resolvedBy: state.resolvedBy,
    resolvedAtMs: state.resolvedAtMs,
    resolveNote: state.resolveNote,
    earlier: earlier && {
      postedAtMs: earlier.postedAtMs,
      permalink: earlier.permalink,
      resolvedBy: earlier.resolvedBy,
      resolveNote: earlier.resolveNote,
    },
  };
}

const slackCode = (err: unknown): string => {
  const code = (err as { data?: { error?: unknown } }).data?.error;
  return typeof code === 'string' ? code : 'unexpected';
};

/** The message as Slack holds it now, else as it was posted; null when neither can be had. */
async function currentMessage(
  deps: ShowAlertDeps,
  state: AlertState,
): Promise<{ text: string; blocks: KnownBlock[] } | null> {
  const row = await deps.store.outbox().get(state.outboxId);
  const text = row?.payload.text ?? state.headline;
  try {
    const res = await deps.web.conversations.history({
      channel: state.channelId,
      latest: state.messageTs,
      inclusive: true,
      limit: 1,
    });
    const m = res.messages?.[0];
    if (m?.ts === state.messageTs && Array.isArray(m.blocks))
      return { text: m.text ?? text, blocks: m.blocks as KnownBlock[] };
  } catch (err) {
    deps.logger.warn({ alertId: state.id, code: slackCode(err) }, 'could not read the alert message');
  }
  return row?.payload.blocks ? { text, blocks: row.payload.blocks as KnownBlock[] } : null;
}

/** The line above the assignee's copy: who gave it to them, and where the alert is. */
function copyIntro(state: AlertState): Mrkdwn {
  const where = state.permalink
    ? mrkdwn`${channelMention(state.channelId)} (${mrkdwnLink(state.permalink, 'open it there')})`
    : channelMention(state.channelId);
  return state.assignedBy
    ? mrkdwn`:bust_in_silhouette: ${userMention(state.assignedBy)} assigned you this alert in ${where}.`
    : mrkdwn`:repeat: This alert happened again in ${where}. You owned it the last time, so it is yours again.`;
}

/** Draws of one change at most: a change made while drawing is drawn again (settleAlertState). */
const MAX_DRAWS = 3;

/**
 * Redraws the channel message and the assignee's copy from the stored state; when
 * `newAssignee`, sends them a copy first. Resolves with the channel blocks as drawn (null
 * when the message could not be read at all). Slack refusing an update is logged, not
 * thrown: the state is stored either way, and the next change draws it again. Then, unless
 * `settle` is false (the caller settles later: announceAlertChange), settleAlertState.
 */
export async function showAlertState(
  deps: ShowAlertDeps,
  state: AlertState,
  options: { newAssignee?: boolean; settle?: boolean } = {},
): Promise<KnownBlock[] | null> {
  const blocks = await drawAlertState(deps, state, options);
  if (!blocks || options.settle === false) return blocks;
  return (await settleAlertState(deps, state)) ?? blocks;
}

/**
 * After `drawn` was drawn: another replica may have changed the alert meanwhile (a Resolve
 * a moment after an Assign), and its draw may have landed before this one, or missed the
 * assignee's copy this one had not recorded yet. So the state is read again and, when it
 * moved on, drawn again: whichever replica draws last draws the newest state, copy
 * included. Resolves with the blocks of the last draw, or null when nothing was drawn
 * again. Best effort, like a draw: a failure is logged, not thrown.
 */
export async function settleAlertState(deps: ShowAlertDeps, drawn: AlertState): Promise<KnownBlock[] | null> {
  let last = drawn;
  let blocks: KnownBlock[] | null = null;
  try {
    for (let draws = 1; draws < MAX_DRAWS; draws += 1) {
      const now = await deps.store.alertStates.get(last.id);
      if (!now || now.version === last.version) break;
      last = now;
      blocks = await drawAlertState(deps, last, {});
      if (!blocks) break;
    }
  } catch (err) {
    deps.logger.warn({ alertId: drawn.id, err }, 'could not check the alert for a newer change');
  }
  return blocks;
}

/** One draw of `state`: the channel message, then the assignee's copy (sent when new). */
async function drawAlertState(
  deps: ShowAlertDeps,
  state: AlertState,
  options: { newAssignee?: boolean },
): Promise<KnownBlock[] | null> {
  const message = await currentMessage(deps, state);
  if (!message) return null;
  const blocks = withAlertState(message.blocks, await alertStateView(deps.store, state));
  try {
    await deps.web.chat.update({
      channel: state.channelId,
      ts: state.messageTs,
      text: message.text,
      blocks: blocks as never,
    });
  } catch (err) {
    deps.logger.warn({ alertId: state.id, code: slackCode(err) }, 'could not redraw the alert message');
  }
  const copy = { text: message.text, blocks: assigneeCopyBlocks(blocks, copyIntro(state)) };
  if (options.newAssignee && state.assigneeId) {
    try {
      const res = await deps.web.chat.postMessage({
        channel: state.assigneeId,
        text: `${copyIntro(state)} ${message.text}`,
        blocks: copy.blocks as never,
        unfurl_links: false,
        unfurl_media: false,
      });
      if (res.channel && res.ts) await deps.store.alertStates.setDirectMessage(state.id, res.channel, res.ts);
    } catch (err) {
      deps.logger.warn({ alertId: state.id, code: slackCode(err) }, 'could not send the assignee a copy');
    }
  } else if (state.dmChannelId && state.dmTs) {
    try {
      await deps.web.chat.update({
        channel: state.dmChannelId,
        ts: state.dmTs,
        text: copy.text,
        blocks: copy.blocks as never,
      });
    } catch (err) {
      deps.logger.warn({ alertId: state.id, code: slackCode(err) }, 'could not update the assignee copy');
    }
  }
  return blocks;
}
