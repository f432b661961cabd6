/**
 * Replies of the subscription commands (subscribe, subscriptions, settings, mute): what a
 * channel receives, with which settings, and anything holding it back (a mute, a pause
 * Slack caused, snoozed kinds, alerts waiting for quiet hours to end). Pure.
 */

import type { AlertSettings } from '../../../alerts/alert-settings.js';
import type { CrawlerRuleChoice } from '../../../alerts/detect-crawler-range.js';
import { describeSettingChanges, describeSettings, formatSettings } from '../../../alerts/format-settings.js';
import { countText } from '../../../figures/number-text.js';
import { capitalised } from '../../../figures/plural.js';
import { ALERT_KIND_WORDS } from '../../../messages/alert-message.js';
import { BLOCK_KIT_LIMITS as L } from '../../../messages/block-kit-limit-table.js';
import type { KnownBlock } from '../../../messages/block-kit-types.js';
import type { NativeTable } from '../../../messages/data-table.js';
import { escapeMrkdwn, joinMrkdwn, type Mrkdwn, mrkdwn, slackDate } from '../../../messages/mrkdwn.js';
import { ownLookup } from '../../../messages/own-lookup.js';
import type { Reply } from '../../../messages/reply.js';
import { truncatePlain } from '../../../messages/truncate-mrkdwn.js';
import type { Snooze } from '../../../store/snoozes-repo.js';
import type { Subscription } from '../../../store/subscriptions-repo.js';
import { brandButton } from '../../views/brand-button.js';
import { brandName } from '../../views/brand-name.js';
import { chunkSections } from '../../views/chunk-sections.js';
import { cutAtWord } from '../../views/cut-at-word.js';
import { shareActionsBlock } from '../../views/share-button.js';
import { nativeTable } from '../../views/table-model.js';
import { textWithTable } from '../../views/tables-as-text.js';
import { jsonLength, roomLeft, takeLinesWithin } from '../../views/take-lines-within.js';
import { MUTE_CHOICES, SUBSCRIPTION_ACTIONS } from './subscription-actions.js';
import { subscriptionsTable } from './subscriptions-table.js';
import { whenAlertsCome } from './when-alerts-come.js';

const kindAlerts = (kind: string): string =>
  ownLookup(ALERT_KIND_WORDS, kind)?.alerts ?? kind.replace(/_/g, ' ');

const quote = (name: string) => `"${name.replace(/"/g, '')}"`;

/** `/visibility <verb> "Brand"` as a copyable code span. */
export function commandFor(verb: string, sub: Pick<Subscription, 'brandName'>, rest = ''): Mrkdwn {
  const tail = rest ? mrkdwn` ${escapeMrkdwn(rest)}` : mrkdwn``;
  return mrkdwn`\`/visibility ${escapeMrkdwn(verb)} ${escapeMrkdwn(quote(sub.brandName))}${tail}\``;
}

function timeZoneOf(settings: AlertSettings, defaultTimezone: string): string {
  return settings.timezone ?? `${defaultTimezone} (the bot's default)`;
}

/** "alerts and the daily digest at 09:00 UTC" (plain text: escape it where it is shown) */
export function receives(
  sub: Pick<Subscription, 'alerts' | 'digest' | 'settings'>,
  defaultTimezone: string,
): string {
  const digest = `the daily digest at ${sub.settings.digestTime} ${timeZoneOf(sub.settings, defaultTimezone)}`;
  if (sub.alerts && sub.digest) return `alerts and ${digest}`;
  if (sub.alerts) return 'alerts (no digest)';
  return `${digest} (no alerts)`;
}

export interface SubscriptionState {
  sub: Subscription;
  /** Snoozes running now for this channel and brand. */
  snoozes: readonly Snooze[];
  /** Alert messages waiting for a mute, a snooze or quiet hours to end. */
  held: number;
}

/** What holds a subscription back, one line each; empty when nothing does. */
function stateLines(s: SubscriptionState, nowMs: number): Mrkdwn[] {
  const { sub } = s;
  const lines: Mrkdwn[] = [];
  if (sub.pausedReason) {
    const since = sub.pausedAtMs ? mrkdwn`since ${slackDate(sub.pausedAtMs)}` : mrkdwn``;
    lines.push(
      mrkdwn`:double_vertical_bar: *Paused* ${since}: ${escapeMrkdwn(sub.pausedReason)}. Fix that, then ${commandFor('subscribe', sub)} again to resume.`,
    );
  }
  if (sub.mutedUntilMs !== null && sub.mutedUntilMs > nowMs) {
    lines.push(
      mrkdwn`:no_bell: *Muted* until ${slackDate(sub.mutedUntilMs)}; alerts are held, not dropped. ${commandFor('unmute', sub)} ends it now.`,
    );
  }
  for (const z of s.snoozes) {
    lines.push(mrkdwn`:zzz: ${escapeMrkdwn(kindAlerts(z.kind))} snoozed until ${slackDate(z.untilMs)}.`);
  }
  if (s.held > 0) {
    lines.push(
      mrkdwn`:hourglass: ${s.held} alert message${s.held === 1 ? mrkdwn`` : mrkdwn`s`} held, delivered together when the hold ends.`,
    );
  }
  return lines;
}

/**
 * The readable settings lines from the alerts layer: their markers (`*`, `_`, backticks)
 * are not among the characters escaping touches, so escaping keeps them and makes the
 * values (a time zone, a time) safe whatever they hold.
 */
const settingsLines = (settings: AlertSettings, defaultTimezone: string): Mrkdwn[] =>
  formatSettings(settings, { defaultTimezone }).map(escapeMrkdwn);

/** The block id of a subscription's buttons: the Mute select's options carry only a duration. */
export const SUBSCRIPTION_BLOCK_PREFIX = 'vis:subs:';

/** A message holds 50 blocks: past this many subscriptions, the rest are changed by typing. */
const MAX_WITH_BUTTONS = 20;
/** Rows the table shows at once; Slack pages through the rest. */
const PAGE_SIZE = 10;
/** The table leaves room for at least this many brands' controls. */
const MIN_CONTROLS = 3;

/**
 * Edit (the settings form), Mute (a duration in words), Unsubscribe (after Slack's confirm).
 * Under the table each control names its brand ("Edit settings: Acme"): the row it acts on.
 */
function subscriptionButtons(sub: Pick<Subscription, 'brandId' | 'brandName'>): KnownBlock {
  const name = brandName(sub.brandName);
  const short = escapeMrkdwn(cutAtWord(sub.brandName, 40));
  return {
    type: 'actions',
    block_id: `${SUBSCRIPTION_BLOCK_PREFIX}${sub.brandId}`,
    elements: [
      brandButton(mrkdwn`Edit settings: ${short}`, SUBSCRIPTION_ACTIONS.edit, { brandId: sub.brandId }),
      {
        type: 'static_select',
        action_id: SUBSCRIPTION_ACTIONS.mute,
        placeholder: { type: 'plain_text', text: mrkdwn`Mute ${short}…` },
        options: MUTE_CHOICES.map((d) => ({
          text: { type: 'plain_text', text: escapeMrkdwn(capitalised(d)) },
          value: d,
        })),
      },
      brandButton(
        mrkdwn`Unsubscribe: ${short}`,
        SUBSCRIPTION_ACTIONS.unsubscribe,
        { brandId: sub.brandId },
        {
          style: 'danger',
          confirm: {
            title: mrkdwn`Unsubscribe?`,
            text: mrkdwn`This channel will no longer get alerts or the daily digest for *${name}*. Alerts held for a mute or quiet hours are dropped.`,
            confirm: mrkdwn`Unsubscribe`,
            deny: mrkdwn`Keep it`,
          },
        },
      ),
    ],
  };
}

/**
 * What holds each subscription back, with what to do about it, under the brand's name, in
 * sections within `room` serialised characters; the table's Status column names the rest.
 */
function holdSections(states: readonly SubscriptionState[], nowMs: number, room: number): KnownBlock[] {
  const lines = states.flatMap((s) => {
    const held = stateLines(s, nowMs);
    return held.length === 0 ? [] : [mrkdwn`*${brandName(s.sub.brandName)}*`, ...held];
  });
  const { kept, dropped } = takeLinesWithin(lines, room - 150);
  if (dropped > 0) kept.push(mrkdwn`…and more: the Status column says which others are held back.`);
  return kept.length > 0 ? chunkSections(kept) : [];
}

/** The first subscriptions whose table fits `room` serialised characters. */
function fittedTable(
  states: readonly SubscriptionState[],
  defaultTimezone: string,
  nowMs: number,
  room: number,
): { table: NativeTable; shown: number } | undefined {
  const total = countText(states.length);
  for (let n = states.length; n > 0; n = n > 10 ? Math.floor(n * 0.8) : n - 1) {
    const caption =
      n < states.length ? `Subscriptions (${total}), the first ${n}` : `Subscriptions (${total})`;
    const table = nativeTable(subscriptionsTable(states.slice(0, n), defaultTimezone, nowMs), {
      caption,
      pageSize: PAGE_SIZE,
    });
    if (table.block && jsonLength(table.block) <= room) return { table, shown: n - table.omitted };
  }
  return undefined;
}

/** The subscriptions' controls, in list order, as many as fit `room` serialised characters. */
function buttonsWithin(states: readonly SubscriptionState[], room: number): KnownBlock[] {
  const blocks: KnownBlock[] = [];
  let used = 0;
  for (const { sub } of states.slice(0, MAX_WITH_BUTTONS)) {
    const block = subscriptionButtons(sub);
    if (used + jsonLength(block) + 1 > room) break;
    blocks.push(block);
    used += jsonLength(block) + 1;
  }
  return blocks;
}

/** "Acme: alerts and the daily digest at 09:00 UTC (muted); …": what notifications show. */
function subscriptionsSentence(states: readonly SubscriptionState[], defaultTimezone: string, nowMs: number) {
  const plain = states
    .map(({ sub }) => {
      const flags = [
        sub.pausedReason ? `paused: ${sub.pausedReason}` : null,
        sub.mutedUntilMs && sub.mutedUntilMs > nowMs ? 'muted' : null,
      ]
        .filter(Boolean)
        .join(', ');
      return `${sub.brandName}: ${receives(sub, defaultTimezone)}${flags ? ` (${flags})` : ''}`;
    })
    .join('; ');
  return truncatePlain(escapeMrkdwn(`Subscriptions in this channel: ${plain}`), L.fallbackText);
}

/**
 * The channel's subscriptions as Slack's own table (a row per brand), what holds any of
 * them back with what to do about it, then each one's controls, naming its brand.
 */
export function subscriptionsReply(
  states: readonly SubscriptionState[],
  defaultTimezone: string,
  nowMs: number,
): Reply {
  if (states.length === 0) {
    const text = mrkdwn`This channel has no subscriptions. Start one with \`/visibility subscribe "Acme Analytics"\` (alerts and the daily digest), or add \`alerts\` or \`digest\` for just one.`;
    return { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] };
  }
  const header: KnownBlock = {
    type: 'header',
    text: { type: 'plain_text', text: mrkdwn`Subscriptions in this channel` },
  };
  const footer: KnownBlock[] = [
    {
      type: 'context',
      elements: [
        {
          type: 'mrkdwn',
          text: mrkdwn`*Edit settings* changes them in a form; \`/visibility settings "Brand"\` shows them all and \`/visibility help settings\` how to type a change.`,
        },
      ],
    },
    shareActionsBlock('subscriptions'),
  ];
  const others: KnownBlock = {
    type: 'context',
    elements: [
      {
        type: 'mrkdwn',
        text: mrkdwn`The others by typing: \`/visibility mute "Brand" 2h\`, \`/visibility unsubscribe "Brand"\`.`,
      },
    ],
  };
  // The table first (leaving room for the first few brands' controls), then each shown
  // brand's controls, then what holds them back. Every block is counted here, Share too.
  let room = roomLeft([header, others, ...footer], L.messageBlocksChars - 300);
  const reserve = jsonLength(states.slice(0, MIN_CONTROLS).map(({ sub }) => subscriptionButtons(sub)));
  const fitted = fittedTable(states, defaultTimezone, nowMs, room - reserve);
  const table = fitted?.table.block ? [fitted.table.block] : [];
  room -= jsonLength(table);
  const controls = buttonsWithin(states.slice(0, fitted?.shown ?? 0), room);
  room -= jsonLength(controls);
  const holds = holdSections(states, nowMs, room);
  if (controls.length < states.length) footer.unshift(others);
  const sentence = subscriptionsSentence(states, defaultTimezone, nowMs);
  return {
    text: fitted ? textWithTable(sentence, fitted.table.text) : sentence,
    blocks: [header, ...table, ...holds, ...controls, ...footer],
  };
}

export function subscribedReply(sub: Subscription, o: { created: boolean; defaultTimezone: string }): Reply {
  const name = brandName(sub.brandName);
  const lead = o.created
    ? mrkdwn`This channel is now subscribed to *${name}*: ${escapeMrkdwn(receives(sub, o.defaultTimezone))}.`
    : mrkdwn`This channel's subscription to *${name}* now brings ${escapeMrkdwn(receives(sub, o.defaultTimezone))}.`;
  const lines = [lead];
  if (sub.alerts) {
    lines.push(
      mrkdwn`${escapeMrkdwn(whenAlertsCome(sub.settings))} Changes from before now are not alerted.`,
    );
  }
  lines.push(
    mrkdwn`Settings: ${commandFor('settings', sub)} · pause alerts: ${commandFor('mute', sub, '2h')} · stop: ${commandFor('unsubscribe', sub)}`,
  );
  return { text: joinMrkdwn(lines, mrkdwn`\n`), blocks: chunkSections(lines) };
}

export function settingsReply(
  sub: Subscription,
  defaultTimezone: string,
  o: { before?: AlertSettings; crawlerRule?: CrawlerRuleChoice } = {},
): Reply {
  const name = brandName(sub.brandName);
  const changes = o.before
    ? describeSettingChanges(o.before, sub.settings, { defaultTimezone }).map(escapeMrkdwn)
    : [];
  const head = o.before
    ? mrkdwn`:white_check_mark: Updated the alert settings for *${name}* in this channel${
        changes.length > 0 ? mrkdwn`:` : mrkdwn`; nothing was different from before.`
      }`
    : mrkdwn`Alert settings for *${name}* in this channel:`;
  const lines = [
    head,
    ...changes,
    ...(o.before
      ? [mrkdwn``, mrkdwn`All the settings now (_custom_ marks those not at their default):`]
      : []),
    ...settingsLines(sub.settings, defaultTimezone),
    ...(o.crawlerRule ? [mrkdwn`_Crawler alerts now:_ ${escapeMrkdwn(o.crawlerRule.why)}`] : []),
    mrkdwn``,
    mrkdwn`*Edit settings* changes them in a form; \`/visibility help settings\` shows how to type a change.`,
  ];
  return {
    text: truncatePlain(
      escapeMrkdwn(
        `${o.before ? 'Updated: ' : ''}${sub.brandName}: ${describeSettings(sub.settings, { defaultTimezone })}`,
      ),
      L.fallbackText,
    ),
    blocks: [
      ...chunkSections(lines),
      {
        type: 'actions',
        block_id: 'vis:settings:buttons',
        elements: [brandButton(mrkdwn`Edit settings`, SUBSCRIPTION_ACTIONS.edit, { brandId: sub.brandId })],
      },
      // Shown again, not opened: the share re-runs the command, and a form would pop up for the sharer.
      shareActionsBlock(`settings ${sub.brandId} --show`),
    ],
  };
}
