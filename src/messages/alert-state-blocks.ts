/**
 * An alert message showing who owns it: the Assign picker and the Resolve button (Reopen
 * once resolved) in its actions, and a context block saying who it is assigned to, who
 * resolved it, when and with what note, and when it happened before. Pure: the blocks as
 * Slack holds them and the stored state in, the blocks to update the message with out.
 * Applying it twice gives the same blocks, so any replica can redraw a message from the
 * store whatever the message showed before.
 */
import { BLOCK_KIT_LIMITS as L } from './block-kit-limit-table.js';
import type { Button, ContextBlock, KnownBlock } from './block-kit-types.js';
import { escapeMrkdwn, type Mrkdwn, mrkdwn, mrkdwnLink, slackDate, userMention } from './mrkdwn.js';
import { truncateMrkdwn } from './truncate-mrkdwn.js';

export const OWNERSHIP_ACTIONS = {
  /** `vis:alert:assign[:<alert id>]`, a users_select. */
  assign: 'vis:alert:assign',
  /** `vis:alert:resolve[:<alert id>]`: opens the note modal. */
  resolve: 'vis:alert:resolve',
  /** `vis:alert:reopen[:<alert id>]` on a resolved alert. */
  reopen: 'vis:alert:reopen',
} as const;

/** The resolve modal's callback_id. */
export const RESOLVE_CALLBACK_ID = 'vis:alert:resolve-note';

const ALERT_STATE_BLOCK_ID = 'vis:alert:state';
const ACTIONS_BLOCK_ID = 'vis:alert:actions';
const FOOTER_BLOCK_ID = 'vis:alert:footer';

/** The longest note shown in a message (the modal takes 500 characters). */
const NOTE_SHOWN_CHARS = 500;

/** What the blocks show of an alert's state (AlertState's fields, and its earlier occurrence). */
export interface AlertStateView {
  id: number;
  assigneeId: string | null;
  assignedBy: string | null;
  assignedAtMs: number | null;
  resolvedBy: string | null;
  resolvedAtMs: number | null;
  resolveNote: string | null;
  earlier: {
    postedAtMs: number;
    permalink: string | null;
    resolvedBy: string | null;
    resolveNote: string | null;
  } | null;
}

type Element = Record<string, unknown>;

const md = (text: Mrkdwn) => ({ type: 'mrkdwn' as const, text });
const idOf = (e: unknown) => ((e as { action_id?: unknown }).action_id as string | undefined) ?? '';
const isOwnership = (e: unknown) =>
  Object.values(OWNERSHIP_ACTIONS).some((p) => idOf(e) === p || idOf(e).startsWith(`${p}:`));
const withId = (prefix: string, id: number | undefined) => (id === undefined ? prefix : `${prefix}:${id}`);

/** The note as the reader sees it: user text, escaped and quoted, cut to NOTE_SHOWN_CHARS. */
export function quotedNote(note: string | null): Mrkdwn {
  const text = (note ?? '').replace(/\s+/g, ' ').trim();
  return text === '' ? mrkdwn`` : mrkdwn` “${truncateMrkdwn(escapeMrkdwn(text), NOTE_SHOWN_CHARS)}”`;
}

/**
 * Assign (a people picker showing the assignee) and Resolve for an open alert; Reopen for a
 * resolved one. `id` is the stored alert once there is one: a copy of the message elsewhere
 * (the assignee's direct message) then still acts on the right alert.
 */
export function ownershipElements(
  state: { id?: number; assigneeId?: string | null; resolved?: boolean } = {},
): Button[] {
  if (state.resolved)
    return [
      {
        type: 'button',
        action_id: withId(OWNERSHIP_ACTIONS.reopen, state.id),
        text: { type: 'plain_text', text: mrkdwn`Reopen`, emoji: true },
        value: 'reopen',
      },
    ];
  const assign = {
    type: 'users_select',
    action_id: withId(OWNERSHIP_ACTIONS.assign, state.id),
    placeholder: { type: 'plain_text', text: mrkdwn`Assign`, emoji: true },
    ...(state.assigneeId ? { initial_user: state.assigneeId } : {}),
  };
  const resolve: Button = {
    type: 'button',
    action_id: withId(OWNERSHIP_ACTIONS.resolve, state.id),
    text: { type: 'plain_text', text: mrkdwn`Resolve`, emoji: true },
    value: 'resolve',
  };
  // A users_select is an actions element the Button type does not name.
  return [assign as unknown as Button, resolve];
}

/** The state's lines: owner, resolution with its note, the earlier occurrence. */
function alertStateLines(view: AlertStateView): Mrkdwn[] {
  const lines: Mrkdwn[] = [];
  if (view.assigneeId) {
    const by = view.assignedBy
      ? mrkdwn` by ${userMention(view.assignedBy)}`
      : mrkdwn`, who owned it the last time it happened`;
    const when = view.assignedAtMs !== null ? mrkdwn` · ${slackDate(view.assignedAtMs)}` : mrkdwn``;
    lines.push(mrkdwn`:bust_in_silhouette: Assigned to ${userMention(view.assigneeId)}${by}${when}`);
  }
  if (view.resolvedBy && view.resolvedAtMs !== null)
    lines.push(
      mrkdwn`:white_check_mark: Resolved by ${userMention(view.resolvedBy)} · ${slackDate(view.resolvedAtMs)}${quotedNote(view.resolveNote)}`,
    );
  const e = view.earlier;
  if (e) {
    const when = slackDate(e.postedAtMs);
    const link = e.permalink ? mrkdwn` (${mrkdwnLink(e.permalink, 'see the earlier alert')})` : mrkdwn``;
    const outcome = e.resolvedBy
      ? mrkdwn`; resolved by ${userMention(e.resolvedBy)}${quotedNote(e.resolveNote)}`
      : mrkdwn`; it was not resolved`;
    lines.push(mrkdwn`:repeat: This happened before, on ${when}${link}${outcome}`);
  }
  return lines;
}

function stateBlock(view: AlertStateView): ContextBlock | null {
  const lines = alertStateLines(view);
  if (lines.length === 0) return null;
  return {
    type: 'context',
    block_id: ALERT_STATE_BLOCK_ID,
    elements: lines.slice(0, L.contextElements).map((l) => md(truncateMrkdwn(l, L.sectionText))),
  };
}

/**
 * `blocks` (the message as posted or as Slack holds it now) showing `view`: the ownership
 * controls replace the earlier ones in the message's actions block (one is added before
 * the footer when the message has none), and the state block replaces the earlier one,
 * just above the actions. Everything else stays as it was.
 */
export function withAlertState(blocks: readonly KnownBlock[], view: AlertStateView): KnownBlock[] {
  const resolved = view.resolvedAtMs !== null;
  const controls = ownershipElements({ id: view.id, assigneeId: view.assigneeId, resolved });
  const out: KnownBlock[] = [];
  let placed = false;
  const state = stateBlock(view);
  for (const b of blocks) {
    if (b.block_id === ALERT_STATE_BLOCK_ID) continue;
    if (!placed && b.type === 'actions' && b.block_id === ACTIONS_BLOCK_ID) {
      const kept = (b.elements as unknown as Element[]).filter((e) => !isOwnership(e));
      const elements = [...kept.slice(0, L.actionsElements - controls.length), ...controls];
      if (state) out.push(state);
      out.push({ ...b, elements } as KnownBlock);
      placed = true;
      continue;
    }
    if (!placed && b.type === 'context' && b.block_id === FOOTER_BLOCK_ID) {
      if (state) out.push(state);
      out.push({ type: 'actions', block_id: ACTIONS_BLOCK_ID, elements: controls });
      placed = true;
    }
    out.push(b);
  }
  if (!placed) {
    if (state) out.push(state);
    out.push({ type: 'actions', block_id: ACTIONS_BLOCK_ID, elements: controls });
  }
  // Room for the two blocks this may add: the message's last blocks before them give way.
  return out.length > L.messageBlocks ? [...out.slice(0, L.messageBlocks - 2), ...out.slice(-2)] : out;
}

/**
 * The assignee's copy: who assigned it and where, then the alert as the channel sees it
 * with only what acts on the alert itself (its Assign and Resolve, the buttons that open a
 * view); a row's menu or a Snooze would act on the direct message, not on the channel.
 */
export function assigneeCopyBlocks(channelBlocks: readonly KnownBlock[], intro: Mrkdwn): KnownBlock[] {
  const out: KnownBlock[] = [{ type: 'section', text: md(truncateMrkdwn(intro, L.sectionText)) }];
  for (const b of channelBlocks) {
    if (b.type === 'section' && b.accessory) {
      const { accessory: _menu, ...rest } = b;
      out.push(rest as KnownBlock);
      continue;
    }
    if (b.type === 'actions') {
      const elements = (b.elements as unknown as Element[]).filter(
        (e) => isOwnership(e) || idOf(e).startsWith('vis:open:'),
      );
      if (elements.length > 0) out.push({ ...b, elements } as KnownBlock);
      continue;
    }
    out.push(b);
  }
  return out.slice(0, L.messageBlocks);
}
