/**
 * The alert message: one per brand per channel per run, grouping that brand's alerts
 * (docs/alert-semantics.md). Pure: an AlertGroup in, `{text, blocks, metadata}` out.
 *
 * Written the way a colleague would: one alert says what changed, before → after, why it
 * matters and what to do under a header that already names it (no second heading). Several
 * alerts list each change in one line (before → after) with its own overflow menu
 * (Acknowledge, Snooze), then say "why it matters / what to do" once per kind, since
 * repeating the same paragraphs per alert buries the changes. A single alert keeps its
 * "Snooze" button and the message's Acknowledge. Notes are a quiet context line; the
 * message ends with buttons to open the details and acknowledge everything, and a footer.
 *
 * Limits are met by construction (≤ 50 blocks, ≤ 12 k characters of blocks, per-field
 * limits); alerts that do not fit are counted in an "…and N more" line, never dropped
 * silently.
 */

import type { AlertGroup } from '../alerts/group-alerts.js';
import { type Alert, type AlertKind, alertKinds, type OpenView } from '../alerts/types.js';
import { namesWithVerb } from '../figures/plural.js';
import { ownershipElements } from './alert-state-blocks.js';
import { BLOCK_KIT_LIMITS as L } from './block-kit-limit-table.js';
import type { Button, ContextBlock, KnownBlock, SectionBlock } from './block-kit-types.js';
import { escapeMrkdwn, joinMrkdwn, type Mrkdwn, mrkdwn, slackDate, userMention } from './mrkdwn.js';
import { truncateId, truncateMrkdwn, truncatePlain } from './truncate-mrkdwn.js';

export const ALERT_ACTIONS = {
  ack: 'vis:alert:ack',
  snooze: mrkdwn`vis:alert:snooze`,
  /** `vis:alert:menu:<row>`, an alert's overflow menu; option values are AlertMenuValue JSON. */
  menu: 'vis:alert:menu',
  /** `vis:open:<view>`, value JSON `{brandId, …params}` */
  openPrefix: 'vis:open:',
} as const;

export const ALERT_BLOCK_IDS = {
  actions: 'vis:alert:actions',
  footer: 'vis:alert:footer',
  /** `vis:alert:row:<index>:<alert key>`: one alert of a grouped message. */
  rowPrefix: 'vis:alert:row:',
} as const;

/** Value of the snooze button. */
interface SnoozeValue {
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

const ALERT_METADATA_EVENT = 'visibility_alert';

interface AlertMessageOptions {
  /** Key carried in message metadata so a repost can be detected; default the group key. */
  dedupeKey?: string;
  /** A kind with more alerts than this is listed compactly. */
  fullPerKind?: number;
}

/**
 * Alert kinds in words, one table for every screen: `alerts` names a kind's alerts as the
 * Snooze button, the snooze notes and the subscriptions list say it; `changes` names what
 * the alerts report, as the App Home lists a group's kinds.
 */
export const ALERT_KIND_WORDS: Readonly<Record<AlertKind, { alerts: string; changes: string }>> = {
  crawler_blocked: { alerts: 'blocked-crawler alerts', changes: 'AI crawlers blocked' },
  model_stopped: { alerts: 'AI model alerts', changes: 'AI models stopped citing' },
  citation_lost: { alerts: 'lost-page alerts', changes: 'cited pages lost' },
  citation_competitor: { alerts: 'competitor alerts', changes: 'competitors on cited pages' },
  citation_sentiment: { alerts: 'sentiment alerts', changes: 'sentiment drops' },
  crawler_drop: { alerts: 'crawler alerts', changes: 'crawler visits down' },
  crawler_recovered: { alerts: 'crawler recovery notices', changes: 'crawler visits recovered' },
  model_recovered: { alerts: 'AI model recovery notices', changes: 'AI models citing again' },
  ai_pages_threshold: { alerts: 'AI Pages usage alerts', changes: 'AI Pages usage level' },
  ai_pages_disabled: { alerts: 'AI Pages status alerts', changes: 'AI Pages turned off' },
};

const snoozeLabel = (kind: AlertKind): Mrkdwn =>
  mrkdwn`Snooze ${escapeMrkdwn(ALERT_KIND_WORDS[kind].alerts)} 24 h`;

const OPEN_LABEL: Readonly<Record<OpenView, Mrkdwn>> = {
  'citations-feed': mrkdwn`Open change feed`,
  ideas: mrkdwn`Open content ideas`,
  crawler: mrkdwn`Open crawler view`,
  aipages: mrkdwn`Open AI Pages`,
};

const FULL_PER_KIND = 3;
/** Room kept for the ownership line (assignee, resolution and its note, the earlier alert). */
const STATE_RESERVE_CHARS = 1500;
/** Room kept for the "…and N more" section. */
const MORE_RESERVE_CHARS = 300;
/** Distinct "why it matters" / "what to do" texts said for one kind, at most. */
const MAX_EXPLANATIONS = 2;

const md = (text: Mrkdwn) => ({ type: 'mrkdwn' as const, text });
const size = (b: unknown) => JSON.stringify(b).length + 1;

type Overflow = Extract<NonNullable<SectionBlock['accessory']>, { type: 'overflow' }>;

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
  return button(snoozeLabel(kind), ALERT_ACTIONS.snooze, JSON.stringify(value));
}

/**
 * What an option of an alert's overflow menu says. The alert itself is the row the menu
 * sits on (its block_id); the brand rides along when it fits an option value, otherwise the
 * handler takes it from the message metadata.
 */
type AlertMenuValue = { do: 'ack' } | { do: 'snooze'; kind: AlertKind; brandId?: string };

function menuOptionValue(value: AlertMenuValue): string {
  return JSON.stringify(value);
}

function alertMenu(brandId: string, kind: AlertKind, index: number): Overflow {
  const withBrand = menuOptionValue({ do: 'snooze', kind, brandId });
  const snoozeValue = withBrand.length <= L.optionValue ? withBrand : menuOptionValue({ do: 'snooze', kind });
  return {
    type: 'overflow',
    action_id: `${ALERT_ACTIONS.menu}:${index}`,
    options: [
      {
        text: { type: 'plain_text', text: mrkdwn`Acknowledge`, emoji: true },
        value: menuOptionValue({ do: 'ack' }),
      },
      {
        text: { type: 'plain_text', text: truncatePlain(snoozeLabel(kind), L.optionText), emoji: true },
        value: snoozeValue,
      },
    ],
  };
}

/** Row block ids name the alert: index (unique in the message) and, as far as it fits, its key. */
function rowBlockId(index: number, key: string): string {
  return truncateId(`${ALERT_BLOCK_IDS.rowPrefix}${index}:${key}`, L.blockId);
}

/** Open-button values stay small so the fixed part of the message leaves room for alerts. */
const OPEN_VALUE_MAX = 500;
const MAX_NOTES = 3;

/** Open-button value; params are dropped rather than cut if they would not fit (cut JSON is useless). */
function openValue(brandId: string, params: Record<string, string> | undefined): string {
  const full = JSON.stringify({ brandId, ...(params ?? {}) });
  return full.length <= OPEN_VALUE_MAX ? full : truncateId(JSON.stringify({ brandId }), L.buttonValue);
}

/**
 * What the view opens on: one alert's own params (its subject, e.g. the URL, and its
 * window); for several, those they all share (the window of the feed they came from).
 */
function sharedParams(alerts: readonly Alert[]): Record<string, string> | undefined {
  const [first, ...rest] = alerts;
  const shared = Object.entries(first?.open.params ?? {}).filter(([k, v]) =>
    rest.every((a) => a.open.params?.[k] === v),
  );
  return shared.length > 0 ? Object.fromEntries(shared) : undefined;
}

/** "cited → not cited", or "now 91 % used" when there is nothing to compare with. */
function change(a: Alert): Mrkdwn | null {
  if (a.before !== null) return mrkdwn`${escapeMrkdwn(a.before)} → ${escapeMrkdwn(a.after ?? '—')}`;
  if (a.after !== null) return mrkdwn`now ${escapeMrkdwn(a.after)}`;
  return null;
}

/** Folded alerts listed under their cause, at most this many; the rest are counted. */
const MAX_FOLDED_LINES = 8;

/**
 * What the data says about why (why-lines.ts), and the alerts this one explains (folded
 * under it, fold-alerts.ts), one line each.
 */
function causeLines(a: Alert): Mrkdwn[] {
  const lines: Mrkdwn[] = [];
  if (a.why && a.why.length > 0) lines.push(mrkdwn`*Why it changed:* ${escapeMrkdwn(a.why.join(' '))}`);
  const folded = a.folded ?? [];
  if (folded.length > 0) {
    lines.push(mrkdwn`*Changes this explains:*`);
    // A few explained alerts keep what changed and why; many are listed one line each.
    const detail = folded.length <= FULL_PER_KIND;
    for (const f of folded.slice(0, MAX_FOLDED_LINES)) lines.push(mrkdwn`• ${rowText(f, detail)}`);
    const rest = folded.length - MAX_FOLDED_LINES;
    if (rest > 0) lines.push(mrkdwn`• …and ${rest} more`);
  }
  return lines;
}

/** The only alert of a message: the header names it, so the body starts with what changed. */
function singleAlertText(a: Alert): Mrkdwn {
  const lines = [escapeMrkdwn(a.whatChanged), ...causeLines(a)];
  const c = change(a);
  if (c !== null) lines.push(mrkdwn`*Before → after:* ${c}`);
  lines.push(
    mrkdwn`*Why it matters:* ${escapeMrkdwn(a.whyItMatters)}`,
    mrkdwn`*What to do:* ${escapeMrkdwn(a.whatToDo)}`,
  );
  return truncateMrkdwn(joinMrkdwn(lines, mrkdwn`\n`), L.sectionText);
}

/** One alert of several: its change in one line, and what changed when there is room for it. */
function rowText(a: Alert, withDetail: boolean): Mrkdwn {
  const c = change(a);
  // A dash, not a colon: titles often hold one already ("Cited page lost: …").
  const line = mrkdwn`*${escapeMrkdwn(a.title)}*${c === null ? mrkdwn`` : mrkdwn` — ${c}`}`;
  if (withDetail) return joinMrkdwn([line, escapeMrkdwn(a.whatChanged), ...causeLines(a)], mrkdwn`\n`);
  // A cause keeps the changes it explains even in a compact list: they are not listed elsewhere.
  return a.folded && a.folded.length > 0 ? joinMrkdwn([line, ...causeLines(a)], mrkdwn`\n`) : line;
}

const distinct = (texts: readonly string[]) => [...new Set(texts)].slice(0, MAX_EXPLANATIONS);

/** The shared "why it matters / what to do" of a kind, said once for all its alerts. */
function explanationText(kind: AlertKind, alerts: readonly Alert[], brandName: string): Mrkdwn {
  const lines: Mrkdwn[] = [];
  if (kind === 'citation_competitor') {
    const names = [...new Set(alerts.flatMap((a) => (a.competitor ? [a.competitor] : [])))];
    if (names.length > 0) {
      const where = alerts.length === 1 ? 'a page' : 'pages';
      lines.push(
        escapeMrkdwn(
          `${namesWithVerb(names, 'now appears', 'now appear')} on ${where} AI models cite for ${brandName}.`,
        ),
      );
    }
  }
  const why = alerts.length === 1 ? mrkdwn`Why it matters` : mrkdwn`Why they matter`;
  lines.push(
    mrkdwn`*${why}:* ${escapeMrkdwn(distinct(alerts.map((a) => a.whyItMatters)).join(' '))}`,
    mrkdwn`*What to do:* ${escapeMrkdwn(distinct(alerts.map((a) => a.whatToDo)).join(' '))}`,
  );
  return truncateMrkdwn(joinMrkdwn(lines, mrkdwn`\n`), 1500);
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
  /** Holds room for a block added later; false (and nothing held) when there is none. */
  reserve(chars: number): boolean {
    if (this.blocksLeft < 1 || chars > this.charsLeft) return false;
    this.blocksLeft -= 1;
    this.charsLeft -= chars;
    return true;
  }
  release(chars: number): void {
    this.blocksLeft += 1;
    this.charsLeft += chars;
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

/**
 * Per-kind body of a message with several alerts: one row per alert (with its menu), then
 * the kind's shared explanation. Returns how many alerts made it in; `firstIndex` numbers
 * the rows across kinds so block and action ids stay unique in the message.
 */
function addKind(
  out: KnownBlock[],
  budget: Budget,
  group: { brandId: string; brandName: string },
  kind: AlertKind,
  alerts: Alert[],
  fullPerKind: number,
  firstIndex: number,
): number {
  const explanation = section(explanationText(kind, alerts, group.brandName));
  const explanationSize = size(explanation);
  // The explanation is held first: rows without their "why" would be the worse cut.
  if (!budget.reserve(explanationSize)) return 0;
  const withDetail = alerts.length <= fullPerKind;
  let shown = 0;
  for (const a of alerts) {
    const index = firstIndex + shown;
    const menu = alertMenu(group.brandId, kind, index);
    const blockId = rowBlockId(index, a.key);
    const room = budget.textRoom(200 + size(menu) + blockId.length);
    if (room < 100) break;
    const row: SectionBlock = {
      type: 'section',
      block_id: blockId,
      text: md(truncateMrkdwn(rowText(a, withDetail), room)),
      accessory: menu,
    };
    if (!budget.add(out, row)) break;
    shown += 1;
  }
  budget.release(explanationSize);
  if (shown > 0) budget.add(out, explanation);
  return shown;
}

function alertHeader(brandName: Mrkdwn, alerts: readonly Alert[]): KnownBlock {
  const n = alerts.length;
  const headerText =
    n === 1
      ? mrkdwn`${brandName}: ${escapeMrkdwn(alerts[0]!.title)}`
      : n > 0
        ? mrkdwn`${brandName}: ${n} alerts`
        : mrkdwn`${brandName}: a note`;
  return {
    type: 'header',
    text: { type: 'plain_text', text: truncatePlain(headerText, L.headerText), emoji: true },
  };
}

function notesBlock(notes: AlertGroup['notes']): ContextBlock | null {
  if (notes.length === 0) return null;
  return {
    type: 'context',
    elements: notes
      .slice(0, MAX_NOTES)
      .map((note) => md(truncateMrkdwn(mrkdwn`:information_source: ${escapeMrkdwn(note.text)}`, 300))),
  };
}

/** One "Open …" button per view the alerts point at, then Acknowledge and the ownership buttons. */
function actionsBlock(group: AlertGroup): KnownBlock | null {
  const { brandId, alerts } = group;
  const n = alerts.length;
  const views = new Map<OpenView, Alert[]>();
  for (const a of alerts) {
    const list = views.get(a.open.view);
    if (list) list.push(a);
    else views.set(a.open.view, [a]);
  }
  const actionElements: Button[] = [...views].map(([view, list]) =>
    button(OPEN_LABEL[view], `${ALERT_ACTIONS.openPrefix}${view}`, openValue(brandId, sharedParams(list))),
  );
  if (n > 0)
    actionElements.push(
      button(
        n === 1 ? mrkdwn`Acknowledge` : mrkdwn`Acknowledge all`,
        ALERT_ACTIONS.ack,
        group.key,
        'primary',
      ),
      // Assign and Resolve: who owns the alert and what became of it (alert-state-blocks.ts).
      ...ownershipElements(),
    );
  if (actionElements.length === 0) return null;
  return {
    type: 'actions',
    block_id: ALERT_BLOCK_IDS.actions,
    elements: actionElements.slice(0, L.actionsElements),
  };
}

function alertFooter(brandName: Mrkdwn, alerts: readonly Alert[]): ContextBlock {
  const detectedAt = alerts.reduce((max, a) => Math.max(max, a.detectedAtMs), 0);
  return {
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
}

/**
 * The alerts themselves, within what the fixed blocks leave: one alert as its full text with
 * a Snooze button, several as rows per kind; whatever does not fit is counted in an
 * "…and N more" line.
 */
function alertBody(group: AlertGroup, budget: Budget, fullPerKind: number): KnownBlock[] {
  const { brandId, alerts } = group;
  const n = alerts.length;
  const body: KnownBlock[] = [];
  let shown = 0;
  if (n === 1) {
    const only = alerts[0]!;
    const snooze = snoozeButton(brandId, only.kind);
    const room = budget.textRoom(200 + size(snooze));
    if (room >= 200 && budget.add(body, section(truncateMrkdwn(singleAlertText(only), room), snooze)))
      shown = 1;
  } else {
    for (const [kind, list] of byKind(alerts)) {
      const added = addKind(body, budget, group, kind, list, fullPerKind, shown);
      shown += added;
      if (added < list.length) break;
    }
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
  return body;
}

/** The notification text: as escaped as the blocks (a page title may carry `<!channel>`). */
function notificationText(brandName: Mrkdwn, group: AlertGroup): Mrkdwn {
  const { alerts, notes } = group;
  const n = alerts.length;
  const titles = escapeMrkdwn(alerts.map((a) => a.title).join('; '));
  return truncatePlain(
    n > 0
      ? mrkdwn`${brandName}: ${n} alert${n === 1 ? mrkdwn`` : mrkdwn`s`}: ${titles}`
      : mrkdwn`${brandName}: ${escapeMrkdwn(notes.map((x) => x.text).join(' '))}`,
    L.fallbackText,
  );
}

export function buildAlertMessage(group: AlertGroup, options: AlertMessageOptions = {}): AlertMessage {
  const { brandId, alerts } = group;
  const brandName = escapeMrkdwn(group.brandName);
  const n = alerts.length;

  const header = alertHeader(brandName, alerts);
  const noteBlock = notesBlock(group.notes);
  const actions = actionsBlock(group);
  const footer = alertFooter(brandName, alerts);

  const fixed: KnownBlock[] = [
    header,
    ...(noteBlock ? [noteBlock] : []),
    ...(actions ? [actions] : []),
    footer,
  ];
  const fixedChars = 2 + fixed.reduce((s, b) => s + size(b), 0);
  // Room kept for the "…and N more" section and for the owner's line added once it is assigned.
  const budget = new Budget(
    L.messageBlocks - fixed.length - 1 - (n > 0 ? 1 : 0),
    L.messageBlocksChars - fixedChars - MORE_RESERVE_CHARS - (n > 0 ? STATE_RESERVE_CHARS : 0),
  );
  const body = alertBody(group, budget, options.fullPerKind ?? FULL_PER_KIND);

  const blocks = [header, ...(noteBlock ? [noteBlock] : []), ...body, ...(actions ? [actions] : []), footer];
  return {
    text: notificationText(brandName, group),
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
const ROW_ACK_LINE = /\n:white_check_mark: Acknowledged by [^\n]*$/;

/**
 * The same message after someone acknowledged one alert of it from its menu: that row says
 * who (a later click replaces the name), its menu becomes the plain Snooze button (an
 * overflow needs two options), and every other block stays as it was. Null when the row is
 * not in the message (deleted or rebuilt since).
 */
export function acknowledgedRowBlocks(
  original: readonly KnownBlock[],
  rowBlockId: string,
  userId: string,
  brandId: string | null,
): KnownBlock[] | null {
  const who = mrkdwn`${ACK_PREFIX} ${userMention(userId)}`;
  let found = false;
  const blocks = original.map((b): KnownBlock => {
    if (b.type !== 'section' || b.block_id !== rowBlockId || !b.text) return b;
    found = true;
    const kept = truncateMrkdwn(
      b.text.text.replace(ROW_ACK_LINE, '') as Mrkdwn,
      L.sectionText - who.length - 1,
    );
    let accessory = b.accessory;
    if (accessory?.type === 'overflow') {
      const snooze = accessory.options
        .map((o) => parseMenuValue(o.value))
        .find((v): v is Extract<AlertMenuValue, { do: 'snooze' }> => v?.do === 'snooze');
      const snoozeBrand = snooze?.brandId ?? brandId;
      accessory = snooze && snoozeBrand ? snoozeButton(snoozeBrand, snooze.kind) : undefined;
    }
    const { accessory: _old, ...rest } = b;
    return { ...rest, text: md(mrkdwn`${kept}\n${who}`), ...(accessory ? { accessory } : {}) };
  });
  return found ? blocks : null;
}

/** An overflow option's value, or null when it is not one of ours (an older or foreign message). */
export function parseMenuValue(value: string | undefined): AlertMenuValue | null {
  if (value === undefined) return null;
  try {
    const v = JSON.parse(value) as { do?: unknown; kind?: unknown; brandId?: unknown };
    if (v.do === 'ack') return { do: 'ack' };
    if (v.do === 'snooze' && alertKinds.includes(v.kind as AlertKind)) {
      return {
        do: 'snooze',
        kind: v.kind as AlertKind,
        ...(typeof v.brandId === 'string' ? { brandId: v.brandId } : {}),
      };
    }
  } catch {
    // Not JSON: not a value this builder wrote.
  }
  return null;
}

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
