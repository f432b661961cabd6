/**
 * The alert message: one per brand per channel per run, grouping that brand's alerts
 * (DESIGN.md). Pure: an AlertGroup in, `{text, blocks, metadata}` out.
 *
 * Layout: header; per kind either one section per alert (what changed, before → after, why
 * it matters, what to do) or, when a kind has many alerts, one explanation plus a compact
 * list; notes as a quiet context line; buttons to open the details and acknowledge; a
 * footer. The first section of each kind carries that kind's "Snooze 24 h" button: snooze
 * is per kind, and Slack wants action_ids unique within a block, so one actions block
 * cannot hold a snooze button per kind.
 *
 * Limits are met by construction (≤ 50 blocks, ≤ 12 k characters of blocks, per-field
 * limits); alerts that do not fit are counted in an "…and N more" line, never dropped
 * silently.
 */
import type { AlertGroup } from '../alerts/group-alerts.js';
import type { Alert, AlertKind, OpenView } from '../alerts/types.js';
import { BLOCK_KIT_LIMITS as L } from './block-kit-limit-table.js';
import type { Button, ContextBlock, KnownBlock, SectionBlock } from './block-kit-types.js';
import { escapeMrkdwn, joinMrkdwn, type Mrkdwn, mrkdwn, slackDate, userMention } from './mrkdwn.js';
import { truncateId, truncateMrkdwn, truncatePlain } from './truncate-mrkdwn.js';

export const ALERT_ACTIONS = {
  ack: 'vis:alert:ack',
  snooze: mrkdwn`vis:alert:snooze`,
  /** `vis:open:<view>`, value JSON `{brandId, …params}` */
  openPrefix: 'vis:open:',
} as const;

export const ALERT_BLOCK_IDS = { actions: 'vis:alert:actions', footer: 'vis:alert:footer' } as const;

/** Value of the snooze button. */
export interface SnoozeValue {
  brandId: string;
  kind: AlertKind;
}

export interface SlackMessageMetadata {
  event_type: string;
  event_payload: Record<string, string | number | boolean>;
}

export interface AlertMessage {
  /** Slack's notification text: escaped like the blocks. */
  text: Mrkdwn;
  blocks: KnownBlock[];
  metadata: SlackMessageMetadata;
}

export const ALERT_METADATA_EVENT = 'visibility_alert';

export interface AlertMessageOptions {
  /** Key carried in message metadata so a repost can be detected; default the group key. */
  dedupeKey?: string;
  /** A kind with more alerts than this is listed compactly. */
  fullPerKind?: number;
}

const KIND_TEXT: Readonly<Record<AlertKind, { heading: Mrkdwn; snooze: Mrkdwn }>> = {
  citation_lost: { heading: mrkdwn`citations lost`, snooze: mrkdwn`Snooze lost-citation alerts 24 h` },
  citation_competitor: {
    heading: mrkdwn`competitors on cited pages`,
    snooze: mrkdwn`Snooze competitor alerts 24 h`,
  },
  citation_sentiment: { heading: mrkdwn`sentiment drops`, snooze: mrkdwn`Snooze sentiment alerts 24 h` },
  crawler_drop: { heading: mrkdwn`crawler visit drops`, snooze: mrkdwn`Snooze crawler alerts 24 h` },
  crawler_recovered: {
    heading: mrkdwn`crawler recoveries`,
    snooze: mrkdwn`Snooze crawler recovery notices 24 h`,
  },
  ai_pages_threshold: {
    heading: mrkdwn`AI Pages usage levels`,
    snooze: mrkdwn`Snooze AI Pages usage alerts 24 h`,
  },
  ai_pages_disabled: {
    heading: mrkdwn`AI Pages status changes`,
    snooze: mrkdwn`Snooze AI Pages status alerts 24 h`,
  },
};

const OPEN_LABEL: Readonly<Record<OpenView, Mrkdwn>> = {
  'citations-feed': mrkdwn`Open citations feed`,
  ideas: mrkdwn`Open content ideas`,
  crawler: mrkdwn`Open crawler view`,
  aipages: mrkdwn`Open AI Pages`,
};

const FULL_PER_KIND = 3;
/** Room kept for the "…and N more" section. */
const MORE_RESERVE_CHARS = 300;

const md = (text: Mrkdwn) => ({ type: 'mrkdwn' as const, text });
const size = (b: unknown) => JSON.stringify(b).length + 1;

function button(text: Mrkdwn, actionId: string, value: string, style?: 'primary' | 'danger'): Button {
  return {
    type: 'button',
    text: { type: 'plain_text', text: truncatePlain(text, L.buttonText), emoji: true },
    action_id: truncateId(actionId, L.actionId),
    value: truncateId(value, L.buttonValue),
    ...(style ? { style } : {}),
  };
}

function snoozeButton(brandId: string, kind: AlertKind): Button {
  const value: SnoozeValue = { brandId, kind };
  return button(KIND_TEXT[kind].snooze, ALERT_ACTIONS.snooze, JSON.stringify(value));
}

/** Open-button values stay small so the fixed part of the message leaves room for alerts. */
const OPEN_VALUE_MAX = 500;
const MAX_NOTES = 3;

/** Open-button value; params are dropped rather than cut if they would not fit (cut JSON is useless). */
function openValue(brandId: string, params: Record<string, string> | undefined): string {
  const full = JSON.stringify({ brandId, ...(params ?? {}) });
  return full.length <= OPEN_VALUE_MAX ? full : truncateId(JSON.stringify({ brandId }), L.buttonValue);
}

function alertText(a: Alert): Mrkdwn {
  const lines = [mrkdwn`*${escapeMrkdwn(a.title)}*`, escapeMrkdwn(a.whatChanged)];
  if (a.before !== null || a.after !== null) {
    lines.push(mrkdwn`*Before → after:* ${escapeMrkdwn(a.before ?? '—')} → ${escapeMrkdwn(a.after ?? '—')}`);
  }
  lines.push(
    mrkdwn`*Why it matters:* ${escapeMrkdwn(a.whyItMatters)}`,
    mrkdwn`*What to do:* ${escapeMrkdwn(a.whatToDo)}`,
  );
  return truncateMrkdwn(joinMrkdwn(lines, mrkdwn`\n`), L.sectionText);
}

function section(text: Mrkdwn, accessory?: Button): SectionBlock {
  return {
    type: 'section',
    text: md(truncateMrkdwn(text, L.sectionText)),
    ...(accessory ? { accessory } : {}),
  };
}

/** Blocks and characters left for the per-alert part of the message. */
class Budget {
  private blocksLeft: number;
  private charsLeft: number;
  constructor(blocks: number, chars: number) {
    this.blocksLeft = blocks;
    this.charsLeft = chars;
  }
  /** Characters a new block's text may use, after the JSON around it. */
  textRoom(overhead = 200): number {
    return this.blocksLeft > 0 ? Math.min(L.sectionText, this.charsLeft - overhead) : 0;
  }
  add(out: KnownBlock[], block: KnownBlock): boolean {
    const s = size(block);
    if (this.blocksLeft < 1 || s > this.charsLeft) return false;
    out.push(block);
    this.blocksLeft -= 1;
    this.charsLeft -= s;
    return true;
  }
}

function byKind(alerts: readonly Alert[]): [AlertKind, Alert[]][] {
  const m = new Map<AlertKind, Alert[]>();
  for (const a of alerts) {
    const list = m.get(a.kind);
    if (list) list.push(a);
    else m.set(a.kind, [a]);
  }
  return [...m];
}

/** Per-kind body; returns how many alerts made it in. */
function addKind(
  out: KnownBlock[],
  budget: Budget,
  brandId: string,
  kind: AlertKind,
  alerts: Alert[],
  fullPerKind: number,
): number {
  const snooze = snoozeButton(brandId, kind);
  const snoozeSize = size(snooze);
  if (alerts.length <= fullPerKind) {
    let shown = 0;
    for (const [i, a] of alerts.entries()) {
      const room = budget.textRoom(i === 0 ? 200 + snoozeSize : 200);
      if (room < 200) break;
      const text = truncateMrkdwn(alertText(a), room);
      if (!budget.add(out, section(text, i === 0 ? snooze : undefined))) break;
      shown += 1;
    }
    return shown;
  }

  const first = alerts[0]!;
  const intro = joinMrkdwn(
    [
      mrkdwn`*${alerts.length} ${KIND_TEXT[kind].heading}*`,
      mrkdwn`*Why it matters:* ${escapeMrkdwn(first.whyItMatters)}`,
      mrkdwn`*What to do:* ${escapeMrkdwn(first.whatToDo)}`,
    ],
    mrkdwn`\n`,
  );
  const introRoom = budget.textRoom(200 + snoozeSize);
  if (introRoom < 200 || !budget.add(out, section(truncateMrkdwn(intro, introRoom), snooze))) return 0;

  let shown = 0;
  let chunk: Mrkdwn[] = [];
  let chunkLen = 0;
  const flush = (): boolean => {
    if (chunk.length === 0) return true;
    const ok = budget.add(out, section(joinMrkdwn(chunk, mrkdwn`\n`)));
    if (ok) shown += chunk.length;
    chunk = [];
    chunkLen = 0;
    return ok;
  };
  for (const a of alerts) {
    const line = mrkdwn`• ${escapeMrkdwn(truncatePlain(a.subject, 300))}`;
    if (chunkLen + line.length + 1 > budget.textRoom()) {
      if (chunk.length === 0 || !flush()) break;
      if (line.length + 1 > budget.textRoom()) break;
    }
    chunk.push(line);
    chunkLen += line.length + 1;
  }
  flush();
  return shown;
}

export function buildAlertMessage(group: AlertGroup, options: AlertMessageOptions = {}): AlertMessage {
  const { brandId, alerts, notes } = group;
  const brandName = escapeMrkdwn(group.brandName);
  const n = alerts.length;
  const fullPerKind = options.fullPerKind ?? FULL_PER_KIND;

  const headerText =
    n === 1
      ? mrkdwn`${brandName}: ${escapeMrkdwn(alerts[0]!.title)}`
      : n > 0
        ? mrkdwn`${brandName}: ${n} alerts`
        : mrkdwn`${brandName}: a note`;
  const header: KnownBlock = {
    type: 'header',
    text: { type: 'plain_text', text: truncatePlain(headerText, L.headerText), emoji: true },
  };

  const noteBlock: ContextBlock | null =
    notes.length > 0
      ? {
          type: 'context',
          elements: notes
            .slice(0, MAX_NOTES)
            .map((note) => md(truncateMrkdwn(mrkdwn`:information_source: ${escapeMrkdwn(note.text)}`, 300))),
        }
      : null;

  const views = new Map<OpenView, Alert[]>();
  for (const a of alerts) {
    const list = views.get(a.open.view);
    if (list) list.push(a);
    else views.set(a.open.view, [a]);
  }
  const actionElements: Button[] = [...views].map(([view, list]) =>
    // One alert behind a view: open it on that alert's subject (e.g. the URL).
    button(
      OPEN_LABEL[view],
      `${ALERT_ACTIONS.openPrefix}${view}`,
      openValue(brandId, list.length === 1 ? list[0]!.open.params : undefined),
    ),
  );
  if (n > 0) actionElements.push(button(mrkdwn`Acknowledge`, ALERT_ACTIONS.ack, group.key, 'primary'));
  const actions: KnownBlock | null =
    actionElements.length > 0
      ? {
          type: 'actions',
          block_id: ALERT_BLOCK_IDS.actions,
          elements: actionElements.slice(0, L.actionsElements),
        }
      : null;

  const detectedAt = alerts.reduce((max, a) => Math.max(max, a.detectedAtMs), 0);
  const footer: ContextBlock = {
    type: 'context',
    block_id: ALERT_BLOCK_IDS.footer,
    elements: [
      md(
        truncateMrkdwn(
          mrkdwn`Brand Visibility alerts for *${brandName}*${detectedAt > 0 ? mrkdwn` · detected ${slackDate(detectedAt)}` : mrkdwn``}`,
          500,
        ),
      ),
    ],
  };

  const fixed: KnownBlock[] = [
    header,
    ...(noteBlock ? [noteBlock] : []),
    ...(actions ? [actions] : []),
    footer,
  ];
  const fixedChars = 2 + fixed.reduce((s, b) => s + size(b), 0);
  const budget = new Budget(
    L.messageBlocks - fixed.length - 1,
    L.messageBlocksChars - fixedChars - MORE_RESERVE_CHARS,
  );

  const body: KnownBlock[] = [];
  let shown = 0;
  for (const [kind, list] of byKind(alerts)) {
    const added = addKind(body, budget, brandId, kind, list, fullPerKind);
    shown += added;
    if (added < list.length) break;
  }
  if (shown < n) {
    const views = [...new Set(alerts.slice(shown).map((a) => OPEN_LABEL[a.open.view].replace(/^Open /, '')))];
    const where = escapeMrkdwn(views.join(', '));
    body.push(
      section(
        mrkdwn`…and ${n - shown} more alert${n - shown === 1 ? mrkdwn`` : mrkdwn`s`}; see the ${where}.`,
      ),
    );
  }

  const blocks = [header, ...(noteBlock ? [noteBlock] : []), ...body, ...(actions ? [actions] : []), footer];
  // The notification text: as escaped as the blocks (a page title may carry `<!channel>`).
  const titles = escapeMrkdwn(alerts.map((a) => a.title).join('; '));
  const text = truncatePlain(
    n > 0
      ? mrkdwn`${brandName}: ${n} alert${n === 1 ? mrkdwn`` : mrkdwn`s`}: ${titles}`
      : mrkdwn`${brandName}: ${escapeMrkdwn(notes.map((x) => x.text).join(' '))}`,
    L.fallbackText,
  );
  return {
    text,
    blocks,
    metadata: {
      event_type: ALERT_METADATA_EVENT,
      event_payload: {
        dedupe_key: options.dedupeKey ?? group.key,
        brand_id: brandId,
        alert_count: n,
        kinds: [...new Set(alerts.map((a) => a.kind))].join(','),
      },
    },
  };
}

const ACK_PREFIX = mrkdwn`:white_check_mark: Acknowledged by`;

/**
 * The same message after someone pressed Acknowledge: the button goes, a line says who
 * (the latest acknowledgement replaces an earlier one), everything else stays as it was.
 */
export function acknowledgedBlocks(original: readonly KnownBlock[], userId: string): KnownBlock[] {
  const who = mrkdwn`${ACK_PREFIX} ${userMention(userId)}`;
  let footerFound = false;
  const blocks: KnownBlock[] = [];
  for (const b of original) {
    if (b.type === 'actions' && b.block_id === ALERT_BLOCK_IDS.actions) {
      const elements = b.elements.filter((e) => !('action_id' in e && e.action_id === ALERT_ACTIONS.ack));
      if (elements.length > 0) blocks.push({ ...b, elements });
      continue;
    }
    if (b.type === 'context' && b.block_id === ALERT_BLOCK_IDS.footer) {
      footerFound = true;
      const kept = b.elements.filter(
        (e) => !('text' in e && typeof e.text === 'string' && e.text.startsWith(ACK_PREFIX)),
      );
      blocks.push({ ...b, elements: [...kept.slice(0, L.contextElements - 1), md(who)] });
      continue;
    }
    blocks.push(b);
  }
  if (!footerFound) {
    const ack: ContextBlock = { type: 'context', block_id: ALERT_BLOCK_IDS.footer, elements: [md(who)] };
    if (blocks.length >= L.messageBlocks) blocks.splice(L.messageBlocks - 1);
    blocks.push(ack);
  }
  return blocks;
}
