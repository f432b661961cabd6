/**
 * The App Home tab as a dashboard: the API quota used today, then per brand (name, role,
 * primary market or global mode, AI Pages usage as a small bar or why there is none), the
 * channels subscribed to it with their digest time and any mute, its latest alerts with
 * what became of them (posted, held, acknowledged by whom, snoozed until when), and
 * buttons into the views. Pure: glances in, a Home view out, within the 100-block limit
 * (past what fits, brands are listed by name with a pointer to `/visibility brands`).
 */

import type { LimiterState } from '../../../api/limiter/types.js';
import type { Brand } from '../../../api/schemas/index.js';
import { countryLabel } from '../../../countries.js';
import { type FigureId, figureName } from '../../../figures/glossary.js';
import { counted } from '../../../figures/plural.js';
import { ALERT_KIND_WORDS } from '../../../messages/alert-message.js';
import { BLOCK_KIT_LIMITS as L } from '../../../messages/block-kit-limit-table.js';
import type { HomeView, KnownBlock } from '../../../messages/block-kit-types.js';
import { formatCount } from '../../../messages/format-number.js';
import {
  channelMention,
  escapeMrkdwn,
  joinMrkdwn,
  type Mrkdwn,
  mrkdwn,
  mrkdwnLink,
  slackDate,
  slackPeriod,
  userMention,
} from '../../../messages/mrkdwn.js';
import { ownLookup } from '../../../messages/own-lookup.js';
import { truncateMrkdwn, truncatePlain } from '../../../messages/truncate-mrkdwn.js';
import type { Subscription } from '../../../store/subscriptions-repo.js';
import { brandButton } from '../../views/brand-button.js';
import { linesWithMore } from '../../views/lines-with-more.js';
import { progressBar } from '../../views/progress-bar.js';
import { sparkline } from '../../views/sparkline.js';
import {
  type AlertGlance,
  type BrandActivity,
  type HoldReason,
  NO_ACTIVITY,
  type OpenAlertGlance,
} from './load-brand-activity.js';
import type { DigestTrend } from './load-digest-trends.js';

export type AiPagesGlance =
  | { status: 'ok'; enabled: boolean; percentageUsed: number | null; resetDate: string | null }
  | { status: 'not_included' }
  | { status: 'not_set_up' }
  | { status: 'unavailable' }
  /** Not asked: past the brands the Home shows in detail. */
  | { status: 'not_loaded' };

export interface BrandGlance {
  brand: Brand;
  aiPages: AiPagesGlance;
  /** Subscriptions and latest alerts from the bot's own database; none when absent. */
  activity?: BrandActivity;
  /** The last digest chart's figures (load-digest-trends.ts); none before a digest had one. */
  trend?: DigestTrend;
}

/** The key's daily count, as `/visibility status` reads it (the limiter's shared state). */
export type QuotaGlance = Pick<LimiterState, 'plan' | 'usedToday' | 'dailyLimit' | 'dailyResetAt'>;

interface HomeViewOptions {
  /** null: the limiter could not be read; absent: the line is left out. */
  quota?: QuotaGlance | null;
  /** The digests' time zone when a subscription sets none (DEFAULT_TIMEZONE). */
  defaultTimezone?: string;
}

export const HOME_BUTTONS = [
  { actionId: 'vis:open:citations', label: mrkdwn`Citations` },
  { actionId: 'vis:open:crawler', label: mrkdwn`Crawler` },
  { actionId: 'vis:open:ideas', label: mrkdwn`Content ideas` },
  { actionId: 'vis:open:aipages', label: mrkdwn`AI Pages` },
  { actionId: 'vis:open:brand', label: mrkdwn`Details` },
  { actionId: 'vis:open:markets', label: mrkdwn`Markets` },
] as const;

/**
 * Four blocks per brand (divider, summary, subscriptions and alerts, buttons); the header,
 * the "updated" line, the quota and the name-only list of the rest take four more of 100.
 */
export const HOME_MAX_DETAILED = 20;
/** Channels listed per brand before "…and N more channels". */
const CHANNELS_PER_BRAND = 5;

const md = (text: Mrkdwn) => ({ type: 'mrkdwn' as const, text });
const section = (text: Mrkdwn): KnownBlock => ({
  type: 'section',
  text: md(truncateMrkdwn(text, L.sectionText)),
});

function where(b: Brand): Mrkdwn {
  if (!b.location) return mrkdwn`:globe_with_meridians: Global mode (no primary market)`;
  const place = [b.location_region, b.location_city]
    .filter((p): p is string => Boolean(p))
    .map((p) => escapeMrkdwn(truncatePlain(p, 60)));
  const more = place.length ? mrkdwn`, ${joinMrkdwn(place, mrkdwn`, `)}` : mrkdwn``;
  return mrkdwn`:round_pushpin: ${escapeMrkdwn(countryLabel(b.location))}${more}`;
}

/** The bar is `progressBar`, whose percent is `usagePercent`: the `aipages` reply, alerts and digest show the same number. */
function aiPagesText(a: AiPagesGlance): Mrkdwn {
  switch (a.status) {
    case 'ok': {
      const off = a.enabled ? mrkdwn`` : mrkdwn` · _disabled_`;
      if (a.percentageUsed === null) return mrkdwn`${USAGE}: no figures yet${off}`;
      return mrkdwn`${USAGE}: \`${progressBar(a.percentageUsed)}\` of the monthly limit${off}`;
    }
    case 'not_included':
      return mrkdwn`AI Pages: not included in the plan`;
    case 'not_set_up':
      return mrkdwn`AI Pages: not set up`;
    case 'unavailable':
      return mrkdwn`AI Pages: usage unavailable right now`;
    case 'not_loaded':
      return mrkdwn``;
  }
}

/** "Citations, 7 days to Nov 27, 2026: ▅▆▇ latest 411, peak 421", by the glossary's name. */
const USAGE = escapeMrkdwn(figureName('aiPagesUsage'));

function trendLine(id: FigureId, days: DigestTrend['citations']): Mrkdwn | null {
  if (!days || days.length === 0) return null;
  const last = days.at(-1)!;
  const peak = Math.max(...days.map((d) => d.value));
  return mrkdwn`${escapeMrkdwn(figureName(id))}, ${slackPeriod(days.length, last.date)}: \`${sparkline(days.map((d) => d.value))}\` latest ${formatCount(last.value)}, peak ${formatCount(peak)}`;
}

/**
 * The digest chart's figures as text bars (Slack shows no uploaded image on the Home).
 * Bars measure from zero, so a small dip reads as small; the figures give the exact values.
 */
export function trendText(trend: DigestTrend | undefined): Mrkdwn {
  if (!trend) return mrkdwn``;
  const lines = [
    trendLine('citations', trend.citations),
    trendLine('aiCrawlerVisits', trend.crawlerVisits),
  ].filter((l): l is Mrkdwn => l !== null);
  return joinMrkdwn(lines, mrkdwn`\n`);
}

/** The same figures under the same name as `/visibility status`'s "API usage today", from the same limiter state. */
export function quotaText(q: QuotaGlance | null): Mrkdwn {
  if (q === null)
    return mrkdwn`*API usage today:* unavailable right now; \`/visibility status\` has the details.`;
  if (q.dailyLimit === null)
    return mrkdwn`*API usage today:* ${escapeMrkdwn(counted(q.usedToday, 'request'))} (no daily limit on this plan).`;
  const pct = q.dailyLimit > 0 ? (q.usedToday / q.dailyLimit) * 100 : 100;
  const warn = pct >= 100 ? mrkdwn` :no_entry: spent` : pct >= 80 ? mrkdwn` :warning:` : mrkdwn``;
  return mrkdwn`*API usage today:* ${formatCount(q.usedToday)} of ${formatCount(q.dailyLimit)} requests  \`${progressBar(pct)}\`${warn} · resets ${slackDate(q.dailyResetAt)}`;
}

/**
 * One alert: its own headline without the brand the tab already names ("AI Pages usage
 * passed 80 %"); a group: how many and of which kinds.
 */
function alertWhat(a: AlertGlance, brandName: string): Mrkdwn {
  const kinds = escapeMrkdwn(
    a.kinds.map((k) => ownLookup(ALERT_KIND_WORDS, k)?.changes ?? k.replace(/_/g, ' ')).join(', '),
  );
  if (a.alertCount === 0) return mrkdwn`*A note*`;
  if (a.alertCount === 1) {
    const prefix = `${brandName}: `;
    const title = a.headline?.startsWith(prefix) ? a.headline.slice(prefix.length) : a.headline;
    if (title) return mrkdwn`*${escapeMrkdwn(truncatePlain(title, 150))}*`;
    return kinds === '' ? mrkdwn`*1 alert*` : mrkdwn`*${kinds}*`;
  }
  return kinds === '' ? mrkdwn`*${a.alertCount} alerts*` : mrkdwn`*${a.alertCount} alerts* (${kinds})`;
}

const HOLD_WHY: Readonly<Record<HoldReason | 'unknown', Mrkdwn>> = {
  mute: mrkdwn` (muted in that channel)`,
  snooze: mrkdwn` (snoozed)`,
  quiet_hours: mrkdwn` (quiet hours)`,
  unknown: mrkdwn``,
};

function alertState(a: AlertGlance, nowMs: number): Mrkdwn {
  const parts: Mrkdwn[] = [];
  switch (a.status) {
    case 'sent':
      parts.push(a.sentAtMs === null ? mrkdwn`posted` : mrkdwn`posted ${slackDate(a.sentAtMs)}`);
      break;
    case 'held':
      parts.push(
        a.holdUntilMs === null
          ? mrkdwn`:hourglass: held`
          : mrkdwn`:hourglass: held until ${slackDate(a.holdUntilMs)}${HOLD_WHY[a.holdReason ?? 'unknown']}`,
      );
      break;
    case 'failed':
      parts.push(mrkdwn`:warning: could not be posted`);
      break;
    default:
      parts.push(mrkdwn`waiting to be posted`);
  }
  if (a.acknowledgedBy.length > 0)
    parts.push(
      mrkdwn`:white_check_mark: acknowledged by ${joinMrkdwn(a.acknowledgedBy.map(userMention), mrkdwn`, `)}`,
    );
  if (a.snoozedUntilMs !== null && a.snoozedUntilMs > nowMs) {
    const by = a.snoozedBy ? mrkdwn` by ${userMention(a.snoozedBy)}` : mrkdwn``;
    parts.push(mrkdwn`:zzz: snoozed until ${slackDate(a.snoozedUntilMs)}${by}`);
  }
  return joinMrkdwn(parts, mrkdwn` · `);
}

function subscriptionLine(s: Subscription, nowMs: number, defaultTimezone: string): Mrkdwn {
  const tz = escapeMrkdwn(truncatePlain(s.settings.timezone ?? defaultTimezone, 60));
  const digest = mrkdwn`digest at ${escapeMrkdwn(s.settings.digestTime)} ${tz}`;
  const gets =
    s.alerts && s.digest ? mrkdwn`alerts and ${digest}` : s.alerts ? mrkdwn`alerts, no digest` : digest;
  const extra: Mrkdwn[] = [];
  if (s.mutedUntilMs !== null && s.mutedUntilMs > nowMs)
    extra.push(mrkdwn`:no_bell: muted until ${slackDate(s.mutedUntilMs)}`);
  if (s.pausedReason !== null)
    extra.push(mrkdwn`:double_vertical_bar: paused: ${escapeMrkdwn(truncatePlain(s.pausedReason, 200))}`);
  const tail = extra.length > 0 ? mrkdwn` · ${joinMrkdwn(extra, mrkdwn` · `)}` : mrkdwn``;
  return mrkdwn`• ${channelMention(s.channelId)}: ${gets}${tail}`;
}

/** Open alerts shown per brand; the rest are counted, and `alerts <brand> open` lists them. */
const OPEN_ALERTS_PER_BRAND = 5;

/** "• Acme: Cited page lost … in #seo since Nov 27: owned by @maya" (linked to the message). */
function openAlertLine(o: OpenAlertGlance): Mrkdwn {
  const title = truncatePlain(o.headline || 'Alert', 150);
  const what = o.permalink ? mrkdwnLink(o.permalink, title) : escapeMrkdwn(title);
  const owner = o.assigneeId ? mrkdwn`owned by ${userMention(o.assigneeId)}` : mrkdwn`_nobody owns it yet_`;
  return mrkdwn`• ${what} in ${channelMention(o.channelId)} since ${slackDate(o.postedAtMs)}: ${owner}`;
}

function openAlertsLines(b: Brand, open: readonly OpenAlertGlance[]): Mrkdwn[] {
  if (open.length === 0) return [];
  const lines = [
    mrkdwn`*Open alerts* (${open.length})`,
    ...open.slice(0, OPEN_ALERTS_PER_BRAND).map(openAlertLine),
  ];
  const more = open.length - OPEN_ALERTS_PER_BRAND;
  if (more > 0) {
    const quoted = escapeMrkdwn(`"${truncatePlain(b.name, 100).replace(/"/g, '')}"`);
    lines.push(mrkdwn`• …and ${more} more: \`/visibility alerts ${quoted} open\``);
  }
  return lines;
}

function activityText(b: Brand, a: BrandActivity, nowMs: number, defaultTimezone: string): Mrkdwn {
  const lines: Mrkdwn[] = [];
  if (a.subscriptions.length === 0) {
    const quoted = escapeMrkdwn(`"${truncatePlain(b.name, 100).replace(/"/g, '')}"`);
    lines.push(
      mrkdwn`_Not subscribed in any channel._ \`/visibility subscribe ${quoted}\` in a channel sends its alerts there.`,
    );
  } else {
    lines.push(mrkdwn`*Subscribed in*`);
    lines.push(
      ...a.subscriptions.slice(0, CHANNELS_PER_BRAND).map((s) => subscriptionLine(s, nowMs, defaultTimezone)),
    );
    const more = a.subscriptions.length - CHANNELS_PER_BRAND;
    if (more > 0) lines.push(mrkdwn`• …and ${more} more channel${more === 1 ? mrkdwn`` : mrkdwn`s`}`);
  }
  lines.push(...openAlertsLines(b, a.openAlerts ?? []));
  if (a.alerts.length > 0) {
    lines.push(mrkdwn`*Latest alerts*`);
    for (const x of a.alerts)
      lines.push(
        mrkdwn`• ${alertWhat(x, b.name)} in ${channelMention(x.channelId)}: ${alertState(x, nowMs)}`,
      );
  } else if (a.subscriptions.length > 0) {
    lines.push(mrkdwn`_No alerts yet._`);
  }
  return linesWithMore(lines, L.sectionText);
}

function brandBlocks(g: BrandGlance, nowMs: number, defaultTimezone: string): KnownBlock[] {
  const b = g.brand;
  const title = mrkdwn`*${escapeMrkdwn(truncatePlain(b.name, 200))}*  ·  ${escapeMrkdwn(b.role)}${b.active ? mrkdwn`` : mrkdwn`  ·  _inactive_`}`;
  const lines = [title, where(b), aiPagesText(g.aiPages), trendText(g.trend)].filter((l) => l !== '');
  const value = { brandId: b.id };
  return [
    { type: 'divider' },
    section(joinMrkdwn(lines, mrkdwn`\n`)),
    section(activityText(b, g.activity ?? NO_ACTIVITY, nowMs, defaultTimezone)),
    {
      type: 'actions',
      block_id: `vis:home:${b.id}`.slice(0, L.blockId),
      elements: HOME_BUTTONS.map((x) => brandButton(x.label, x.actionId, value)),
    },
  ];
}

/**
 * The order of the tab (and of the brands whose usage is loaded): brands watched in a
 * channel first (the dashboard is mostly about them), then active ones, then by name.
 */
export function sortForHome<T extends Pick<Brand, 'active' | 'name'> & { id?: string }>(
  brands: readonly T[],
  watched: ReadonlySet<string> = new Set(),
): T[] {
  const w = (b: T) => Number(b.id !== undefined && watched.has(b.id));
  return [...brands].sort(
    (a, b) => w(b) - w(a) || Number(b.active) - Number(a.active) || a.name.localeCompare(b.name),
  );
}

export function brandsHomeView(
  glances: readonly BrandGlance[],
  nowMs: number,
  options: HomeViewOptions = {},
): HomeView {
  const defaultTimezone = options.defaultTimezone ?? 'UTC';
  const watched = new Set(
    glances.filter((g) => (g.activity?.subscriptions.length ?? 0) > 0).map((g) => g.brand.id),
  );
  const order = new Map(
    sortForHome(
      glances.map((g) => g.brand),
      watched,
    ).map((b, i) => [b, i]),
  );
  const sorted = [...glances].sort((a, b) => order.get(a.brand)! - order.get(b.brand)!);
  const detailed = sorted.slice(0, HOME_MAX_DETAILED);
  const rest = sorted.slice(HOME_MAX_DETAILED);
  const blocks: KnownBlock[] = [
    {
      type: 'header',
      text: {
        type: 'plain_text',
        text: mrkdwn`Brand Visibility: ${glances.length} brand${glances.length === 1 ? mrkdwn`` : mrkdwn`s`}`,
      },
    },
    {
      type: 'context',
      elements: [
        md(
          mrkdwn`Updated ${slackDate(nowMs)}, each time you open this tab. Type \`/visibility help\` for every command.`,
        ),
      ],
    },
  ];
  if (options.quota !== undefined) blocks.push(section(quotaText(options.quota)));
  if (glances.length === 0) {
    blocks.push(
      section(
        mrkdwn`The API key sees no brands yet. Brands appear here once the key’s user owns or is invited to one.`,
      ),
    );
  }
  for (const g of detailed) blocks.push(...brandBlocks(g, nowMs, defaultTimezone));
  if (rest.length > 0) {
    blocks.push({ type: 'divider' });
    blocks.push(
      section(
        linesWithMore(
          [
            mrkdwn`*…and ${rest.length} more* — \`/visibility brands\` lists them all:`,
            ...rest.map((g) => mrkdwn`• ${escapeMrkdwn(truncatePlain(g.brand.name, 200))}`),
          ],
          L.sectionText,
        ),
      ),
    );
  }
  return { type: 'home', blocks };
}

/** Guests and failures get a short, polite page instead of a blank tab. */
export function noticeHomeView(text: Mrkdwn): HomeView {
  return {
    type: 'home',
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: mrkdwn`Brand Visibility` } },
      { type: 'section', text: md(truncateMrkdwn(text, L.sectionText)) },
    ],
  };
}
