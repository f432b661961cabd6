/**
 * Alert messages held during quiet hours or a mute are delivered, when the hold ends, as one
 * message per brand per channel (docs/alert-semantics.md: held alerts are delivered, not dropped), like a
 * run's alerts. Pure: held messages in, grouped messages out.
 *
 * Each held message keeps its blocks; their action rows are merged into one at the end (one
 * Acknowledge, each "Open …" once) and only the last footer stays, because Slack refuses a
 * message whose block_ids repeat. Messages go into a group while the group stays within
 * 50 blocks and the character budget; the rest start another group, so nothing is cut.
 */
import { ALERT_ACTIONS, ALERT_BLOCK_IDS } from './alert-message.js';
import { BLOCK_KIT_LIMITS as L } from './block-kit-limit-table.js';
import type { KnownBlock } from './block-kit-types.js';
import { escapeMrkdwn, joinMrkdwn, type Mrkdwn, mrkdwn } from './mrkdwn.js';
import { truncatePlain } from './truncate-mrkdwn.js';

interface HeldMessage {
  /** As stored in the outbox: built, and escaped, by buildAlertMessage. */
  text: string;
  blocks?: unknown[];
  metadata?: { event_type: string; event_payload: Record<string, unknown> };
}

interface GroupedHeldMessage {
  /** Indexes into the input, in order. */
  members: number[];
  /** null when the group holds one message: it is delivered as it was. */
  message: { text: Mrkdwn; blocks: KnownBlock[]; metadata: HeldMessage['metadata'] } | null;
}

type Block = Record<string, unknown> & { type?: unknown; block_id?: unknown; elements?: unknown };

const size = (b: unknown) => JSON.stringify(b).length + 1;
const DIVIDER: KnownBlock = { type: 'divider' };

/** How many alerts a held message stands for (the alert builder records it in metadata). */
function alertCount(m: HeldMessage): number {
  const n = m.metadata?.event_payload['alert_count'];
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : 1;
}

function heading(count: number): Mrkdwn {
  return mrkdwn`${count} alert${count === 1 ? mrkdwn`` : mrkdwn`s`} held during quiet hours or a mute`;
}

/**
 * A held message's text was escaped when buildAlertMessage made it, and that text never
 * holds markup (no `<`, `>`, and `&` only in entities). Anything else could only come from
 * a row written by an older version, so it is escaped again rather than trusted.
 */
function storedText(text: string): Mrkdwn {
  const escaped = !/[<>]/.test(text) && !/&(?!amp;|lt;|gt;)/.test(text);
  return escaped ? (text as Mrkdwn) : escapeMrkdwn(text);
}

interface Parts {
  body: Block[];
  actions: Block[];
  footer: Block | null;
}

function partsOf(m: HeldMessage): Parts {
  const blocks = (m.blocks ?? []) as Block[];
  const parts: Parts = { body: [], actions: [], footer: null };
  for (const b of blocks) {
    if (b.type === 'actions' && b.block_id === ALERT_BLOCK_IDS.actions) {
      parts.actions.push(...((Array.isArray(b.elements) ? b.elements : []) as Block[]));
    } else if (b.type === 'context' && b.block_id === ALERT_BLOCK_IDS.footer) {
      parts.footer = b;
    } else {
      parts.body.push(b);
    }
  }
  if (blocks.length === 0)
    parts.body.push({
      type: 'section',
      text: { type: 'mrkdwn', text: truncatePlain(storedText(m.text), L.sectionText) },
    });
  return parts;
}

/** One Acknowledge (last), each other action_id once: action_ids must be unique in a block. */
function mergedActions(all: Block[]): Block | null {
  const seen = new Set<string>();
  const open: Block[] = [];
  let ack: Block | null = null;
  for (const e of all) {
    const id = typeof e['action_id'] === 'string' ? e['action_id'] : '';
    if (id === ALERT_ACTIONS.ack) ack = e;
    else if (!seen.has(id)) {
      seen.add(id);
      open.push(e);
    }
  }
  const elements = [...open.slice(0, L.actionsElements - (ack ? 1 : 0)), ...(ack ? [ack] : [])];
  return elements.length > 0 ? { type: 'actions', block_id: ALERT_BLOCK_IDS.actions, elements } : null;
}

/** Drops block_ids already used earlier in the message (the rest of the block is kept). */
function uniqueIds(blocks: Block[]): Block[] {
  const used = new Set<string>();
  return blocks.map((b) => {
    if (typeof b.block_id !== 'string') return b;
    if (!used.has(b.block_id)) {
      used.add(b.block_id);
      return b;
    }
    const { block_id: _dropped, ...rest } = b;
    return rest;
  });
}

function compose(messages: readonly HeldMessage[], parts: readonly Parts[]): GroupedHeldMessage['message'] {
  const count = messages.reduce((s, m) => s + alertCount(m), 0);
  const header: Block = {
    type: 'header',
    text: { type: 'plain_text', text: truncatePlain(heading(count), L.headerText), emoji: true },
  };
  const body: Block[] = [];
  parts.forEach((p, i) => {
    if (i > 0) body.push(DIVIDER as Block);
    body.push(...p.body);
  });
  const actions = mergedActions(parts.flatMap((p) => p.actions));
  const footer = parts.findLast((p) => p.footer)?.footer ?? null;
  const blocks = uniqueIds([header, ...body, ...(actions ? [actions] : []), ...(footer ? [footer] : [])]);
  const first = messages[0]?.metadata;
  return {
    text: truncatePlain(
      mrkdwn`${heading(count)}: ${joinMrkdwn(
        messages.map((m) => storedText(m.text)),
        mrkdwn` | `,
      )}`,
      L.fallbackText,
    ),
    blocks: blocks as KnownBlock[],
    metadata: {
      event_type: first?.event_type ?? 'visibility_alert',
      event_payload: {
        ...(first?.event_payload ?? {}),
        alert_count: count,
        held_messages: messages.length,
      },
    },
  };
}

function fits(parts: readonly Parts[]): boolean {
  const header = 1;
  const body = parts.reduce((s, p, i) => s + p.body.length + (i > 0 ? 1 : 0), 0);
  const tail = (parts.some((p) => p.actions.length > 0) ? 1 : 0) + (parts.some((p) => p.footer) ? 1 : 0);
  if (header + body + tail > L.messageBlocks) return false;
  const chars =
    200 + // header and the merged actions' overhead
    parts.reduce((s, p, i) => s + p.body.reduce((t, b) => t + size(b), 0) + (i > 0 ? size(DIVIDER) : 0), 0) +
    parts.reduce((s, p) => s + p.actions.reduce((t, e) => t + size(e), 0), 0) +
    size(parts.findLast((p) => p.footer)?.footer ?? null);
  return chars <= L.messageBlocksChars;
}

export function groupHeldMessages(messages: readonly HeldMessage[]): GroupedHeldMessage[] {
  const parts = messages.map(partsOf);
  const groups: number[][] = [];
  let current: number[] = [];
  for (let i = 0; i < messages.length; i += 1) {
    const candidate = [...current, i];
    if (current.length === 0 || fits(candidate.map((j) => parts[j]!))) current = candidate;
    else {
      groups.push(current);
      current = [i];
    }
  }
  if (current.length > 0) groups.push(current);
  return groups.map((members) => ({
    members,
    message:
      members.length === 1
        ? null
        : compose(
            members.map((j) => messages[j]!),
            members.map((j) => parts[j]!),
          ),
  }));
}
