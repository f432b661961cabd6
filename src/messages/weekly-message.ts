/**
 * The weekly summary message for one brand in one channel: what the week lost and won back,
 * its alerts and who took them, and the week-over-week figures by their glossary names,
 * each figure with the days it compares. Pure: a WeeklySummary in, `{text, blocks,
 * metadata}` out, within Slack's limits whatever the input (long lists end in "…and N more").
 */
import type { Unavailable } from '../alerts/compose-digest.js';
import type { WeeklyAlertCounts, WeeklyFigure, WeeklySummary } from '../alerts/compose-weekly.js';
import { type AlertKind, alertKinds } from '../alerts/types.js';
import { dayRangeText } from '../figures/day-text.js';
import { countFigure, figureName } from '../figures/glossary.js';
import { counted, nameList } from '../figures/plural.js';
import { ALERT_KIND_WORDS, type SlackMessageMetadata } from './alert-message.js';
import { BLOCK_KIT_LIMITS as L } from './block-kit-limit-table.js';
import type { KnownBlock } from './block-kit-types.js';
import { openButton, urlLine, withList } from './digest-message.js';
import { formatCount, formatSignedCount, formatSignedPercent } from './format-number.js';
import { escapeMrkdwn, joinMrkdwn, type Mrkdwn, mrkdwn, slackDay, userMention } from './mrkdwn.js';
import { shrinkToFit } from './shrink-to-fit.js';
import { truncateMrkdwn, truncatePlain } from './truncate-mrkdwn.js';

interface WeeklyMessage {
  text: Mrkdwn;
  blocks: KnownBlock[];
  metadata: SlackMessageMetadata;
}

const WEEKLY_METADATA_EVENT = 'visibility_weekly';

const md = (text: Mrkdwn) => ({ type: 'mrkdwn' as const, text });
const num = (n: number): Mrkdwn => formatCount(n);
const name = (id: WeeklyFigure['id']) => escapeMrkdwn(figureName(id));
const unavailable = (title: Mrkdwn, u: Unavailable) =>
  mrkdwn`*${title}*: unavailable: ${escapeMrkdwn(u.reason)}`;

/** "Acme: weekly summary for Nov 16–22, 2026 (late: the bot was not running on Monday)". */
export function weeklyTitle(w: WeeklySummary): string {
  const late = w.late ? ` (late: the bot was not running on ${w.missedDay})` : '';
  return `${w.brandName}: weekly summary for ${dayRangeText(w.start, w.end)}${late}`;
}

function citationsText(w: WeeklySummary, max: number): Mrkdwn {
  const title = mrkdwn`Cited pages lost and won back`;
  const c = w.citations;
  if (c.status !== 'ok') return unavailable(title, c);
  if (c.lostCount === 0 && c.wonCount === 0)
    return mrkdwn`*${title}*: no cited page was lost or won this week.`;
  const head = mrkdwn`*${title}*: ${num(c.lostCount)} lost, ${num(c.wonCount)} won back or newly cited`;
  const half = Math.floor((max - head.length) / 2);
  const parts = [head];
  if (c.lostCount > 0)
    parts.push(withList(mrkdwn`*Lost (${num(c.lostCount)}):*`, c.topLost.map(urlLine), c.lostCount, half));
  if (c.wonCount > 0)
    parts.push(
      withList(mrkdwn`*Won back or new (${num(c.wonCount)}):*`, c.topWon.map(urlLine), c.wonCount, half),
    );
  return truncateMrkdwn(joinMrkdwn(parts, mrkdwn`\n`), max);
}

const isKind = (k: string): k is AlertKind => (alertKinds as readonly string[]).includes(k);

/** "<@U1> (3) and <@U2> (1)": mentions are markup, so the list is joined as mrkdwn. */
function people(xs: { userId: string | null; count: number }[]): Mrkdwn {
  const each = xs.map(
    (x) => mrkdwn`${x.userId === null ? mrkdwn`nobody yet` : userMention(x.userId)} (${num(x.count)})`,
  );
  if (each.length <= 1) return each[0] ?? mrkdwn``;
  return mrkdwn`${joinMrkdwn(each.slice(0, -1), mrkdwn`, `)} and ${each.at(-1)!}`;
}

function alertsText(w: WeeklySummary): Mrkdwn {
  const a: WeeklyAlertCounts | Unavailable = w.alerts;
  if ('status' in a) return unavailable(mrkdwn`Alerts`, a);
  if (a.opened === 0) return mrkdwn`*Alerts*: none this week.`;
  const kinds = a.kinds.filter(isKind).map((k) => ALERT_KIND_WORDS[k].changes);
  const about = kinds.length > 0 ? mrkdwn` (${escapeMrkdwn(nameList(kinds))})` : mrkdwn``;
  const lines = [];
  if (a.states) {
    const s = a.states;
    lines.push(
      mrkdwn`*Alerts*: ${num(a.opened)} opened${about}, ${num(s.resolved)} resolved, ${num(s.stillOpen)} still open.`,
    );
    if (s.stillOpen > 0 && s.openByOwner.length > 0)
      lines.push(mrkdwn`Open, by owner: ${people(s.openByOwner)}.`);
  } else {
    lines.push(mrkdwn`*Alerts*: ${escapeMrkdwn(counted(a.opened, 'alert'))} sent to this channel${about}.`);
  }
  lines.push(
    a.acknowledgedBy.length > 0
      ? mrkdwn`Acknowledged by ${people(a.acknowledgedBy)}.`
      : mrkdwn`Nobody acknowledged them.`,
  );
  return truncateMrkdwn(joinMrkdwn(lines, mrkdwn`\n`), L.sectionText);
}

/** "64 on Nov 23 vs 60 on Nov 16" or "1,234 in Nov 16–22 vs 1,100 in Nov 9–15". */
function figureLine(f: WeeklyFigure): Mrkdwn {
  const when = (d: { start: string; end: string }) =>
    d.start === d.end
      ? mrkdwn`on ${slackDay(d.end)}`
      : mrkdwn`in ${escapeMrkdwn(dayRangeText(d.start, d.end))}`;
  const delta =
    f.id === 'citedPages'
      ? mrkdwn`${formatSignedCount(f.current - f.previous)}, ${formatSignedPercent(f.changePct)}`
      : formatSignedPercent(f.changePct);
  return mrkdwn`• *${name(f.id)}*: ${num(f.current)} ${when(f.currentDays)} vs ${num(f.previous)} ${when(f.previousDays)} (${delta})`;
}

function figuresText(w: WeeklySummary): Mrkdwn {
  const lines = [
    ...w.figures.map(figureLine),
    ...w.unavailable.map((u) => mrkdwn`• *${name(u.id)}*: unavailable: ${escapeMrkdwn(u.reason)}`),
  ];
  if (lines.length === 0) return mrkdwn`*Week over week*: no figures for these days yet.`;
  return truncateMrkdwn(joinMrkdwn([mrkdwn`*Week over week*`, ...lines], mrkdwn`\n`), L.sectionText);
}

function build(w: WeeklySummary, sectionMax: number): KnownBlock[] {
  return [
    {
      type: 'header',
      text: {
        type: 'plain_text',
        text: truncatePlain(escapeMrkdwn(weeklyTitle(w)), L.headerText),
        emoji: true,
      },
    },
    {
      type: 'section',
      text: md(truncateMrkdwn(citationsText(w, sectionMax), Math.min(sectionMax, L.sectionText))),
      accessory: openButton('citations-feed', mrkdwn`Change feed`, w.brandId),
    },
    { type: 'section', text: md(alertsText(w)) },
    {
      type: 'section',
      text: md(figuresText(w)),
      accessory: openButton('crawler', mrkdwn`Crawler`, w.brandId),
    },
    {
      type: 'context',
      elements: [
        md(
          truncateMrkdwn(
            mrkdwn`Brand Visibility weekly summary for *${escapeMrkdwn(w.brandName)}*: the 7 days before ${slackDay(w.date)}. \`/visibility settings\` changes its day and time or turns it off.`,
            600,
          ),
        ),
      ],
    },
  ];
}

/** The notification text: names escaped like the blocks; dates written out. */
function fallback(w: WeeklySummary): Mrkdwn {
  const parts = [mrkdwn`${escapeMrkdwn(weeklyTitle(w))}.`];
  if (w.citations.status === 'ok')
    parts.push(
      mrkdwn`${escapeMrkdwn(countFigure('citedPages', w.citations.lostCount))} lost, ${num(w.citations.wonCount)} won back or new.`,
    );
  if (!('status' in w.alerts)) parts.push(mrkdwn`${escapeMrkdwn(counted(w.alerts.opened, 'alert'))}.`);
  return truncatePlain(joinMrkdwn(parts, mrkdwn` `), L.fallbackText);
}

export function buildWeeklyMessage(w: WeeklySummary, options: { dedupeKey?: string } = {}): WeeklyMessage {
  const blocks = shrinkToFit((sectionMax) => build(w, sectionMax));
  return {
    text: fallback(w),
    blocks,
    metadata: {
      event_type: WEEKLY_METADATA_EVENT,
      event_payload: {
        dedupe_key: options.dedupeKey ?? w.key,
        brand_id: w.brandId,
        date: w.date,
        late: w.late,
      },
    },
  };
}
