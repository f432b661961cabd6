/**
 * `/visibility crawler <brand> [range] [--compare]`: AI crawler visits at a glance — hero
 * figures with their change, the daily trend as a sparkline, which crawlers came and of
 * what kind, the most crawled pages and the latest visits.
 *
 * One name and one value per figure. The period is said in dates, with the period it is
 * compared with, and when it runs to today the reader is told that alerts and the digest
 * count whole days up to yesterday (so their figure for "the last 7 days" differs). The
 * service's fields do not all add up (docs/api.md §11): search-crawler visits are
 * `breakdown.search_bot_visits`; the bot-type split is `chart.bot_type_summary`, shown as
 * sent, with a note when its parts disagree with the total or with search-crawler visits.
 */

import type { CrawlerOverview } from '../../../api/schemas/index.js';
import { shortDayText } from '../../../figures/day-text.js';
import type { KnownBlock } from '../../../messages/block-kit-types.js';
import { formatCount, formatPercent, formatSignedPercent } from '../../../messages/format-number.js';
import { escapeMrkdwn, joinMrkdwn, type Mrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import type { Reply } from '../../../messages/reply.js';
import { addDays, isCalendarDate } from '../../../utc-days.js';
import { compact, contextBlock, fieldsBlock, headerBlock, sectionBlock } from '../../views/basic-blocks.js';
import { chunkSections } from '../../views/chunk-sections.js';
import { fallbackText } from '../../views/fallback-text.js';
import { inlineText, linkOrText } from '../../views/link-or-text.js';
import { sparkline } from '../../views/sparkline.js';
import { roomLeft, takeLinesWithin } from '../../views/take-lines-within.js';
import { dayWords } from './payload-values.js';
import { itemLine } from './record-row.js';

interface CrawlerOverviewInput {
  brand: { id: string; name: string };
  response: CrawlerOverview;
  /** The current UTC day (`YYYY-MM-DD`): a range that runs to it is "today so far". */
  today?: string | undefined;
}

const BOT_TYPES: readonly ['training' | 'search' | 'interaction' | 'agent' | 'other', Mrkdwn][] = [
  ['training', mrkdwn`Training`],
  ['search', mrkdwn`Search`],
  ['interaction', mrkdwn`Interaction`],
  ['agent', mrkdwn`Agent`],
  ['other', mrkdwn`Other`],
];

const PRESETS: Readonly<Record<string, string>> = {
  '24h': 'Last 24 hours',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  '90d': 'Last 90 days',
};

const plural = (n: number, one: Mrkdwn, many: Mrkdwn) => (n === 1 ? one : many);

const withChange = (value: Mrkdwn, change: number | null | undefined): Mrkdwn =>
  typeof change === 'number' ? mrkdwn`${value} (${formatSignedPercent(change)})` : value;

const span = (start: string, end: string): Mrkdwn =>
  start === end ? dayWords(start) : mrkdwn`${dayWords(start)} – ${dayWords(end)}`;

/** "Last 7 days: 21 Nov – 27 Nov 2026 (today so far) · compared with 14 Nov – 20 Nov 2026". */
function periodContext(r: CrawlerOverview, today: string | undefined): KnownBlock | undefined {
  const { start, end, days } = r.range;
  const preset = Object.hasOwn(PRESETS, r.range.range_preset) ? PRESETS[r.range.range_preset] : undefined;
  const dates = mrkdwn`${preset ? mrkdwn`${escapeMrkdwn(preset)}: ` : mrkdwn``}${span(start.slice(0, 10), end.slice(0, 10))}`;
  const runsToToday = today !== undefined && end.slice(0, 10) === today;
  const compared = r.range.compare_to === 'previous_period' && isCalendarDate(start.slice(0, 10));
  const before = compared
    ? mrkdwn`compared with ${span(addDays(start.slice(0, 10), -days), addDays(start.slice(0, 10), -1))}`
    : undefined;
  return contextBlock(
    mrkdwn`${dates}${runsToToday ? mrkdwn` (today so far)` : mrkdwn``}`,
    before,
    runsToToday && mrkdwn`alerts and the digest count whole days up to yesterday`,
  );
}

function setupWarning(r: CrawlerOverview): KnownBlock | undefined {
  if (!r.state.has_tracking_id)
    return sectionBlock(
      mrkdwn`:warning: Crawler tracking is not set up for this brand: add the tracking snippet or log integration in the Brand Visibility dashboard to start counting AI crawler visits.`,
    );
  if (!r.state.has_historical_data)
    return sectionBlock(
      mrkdwn`:hourglass: Tracking is set up but no history has been collected yet; figures fill in over the next days.`,
    );
  return undefined;
}

function heroFields(r: CrawlerOverview): KnownBlock | undefined {
  const h = r.hero;
  return fieldsBlock([
    {
      label: mrkdwn`AI crawler visits`,
      value: withChange(mrkdwn`*${formatCount(h.total_visits)}*`, h.total_visits_change),
    },
    { label: mrkdwn`Pages visited`, value: withChange(formatCount(h.unique_pages), h.unique_pages_change) },
    { label: mrkdwn`Visits a day`, value: formatCount(h.avg_daily_visits) },
    { label: mrkdwn`Top crawler`, value: h.top_crawler ? inlineText(h.top_crawler, 60) : mrkdwn`—` },
    { label: mrkdwn`Search-crawler visits`, value: formatCount(r.breakdown.search_bot_visits) },
    { label: mrkdwn`Crawl efficiency`, value: formatPercent(r.breakdown.crawl_efficiency_pct) },
  ]);
}

function dailyLine(r: CrawlerOverview): Mrkdwn | undefined {
  const series = [...r.chart.series].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  if (series.length === 0) return undefined;
  const counts = series.map((p) => p.count);
  const peak = series.reduce((a, b) => (b.count > a.count ? b : a));
  const on = (p: { date: string; count: number }) =>
    mrkdwn`${formatCount(p.count)} on ${escapeMrkdwn(shortDayText(p.date.slice(0, 10)))}`;
  return mrkdwn`*By day*  \`${sparkline(counts, 45)}\`  ${on(series[0]!)} → ${on(series.at(-1)!)} · peak ${on(peak)}`;
}

/** The bot-type split as sent, and what it does not agree with, said once. */
function botTypeLines(r: CrawlerOverview): Mrkdwn[] {
  const types = r.chart.bot_type_summary;
  const line = mrkdwn`*By bot type*  ${joinMrkdwn(
    BOT_TYPES.map(([k, name]) => mrkdwn`${name} ${formatCount(types[k])}`),
    mrkdwn` · `,
  )}`;
  const sum = BOT_TYPES.reduce((n, [k]) => n + (Number.isFinite(types[k]) ? types[k] : 0), 0);
  const notes: Mrkdwn[] = [];
  if (sum !== r.hero.total_visits)
    notes.push(
      mrkdwn`its parts add up to ${formatCount(sum)}, not the ${formatCount(r.hero.total_visits)} AI crawler visits above`,
    );
  if (types.search !== r.breakdown.search_bot_visits)
    notes.push(
      mrkdwn`its Search part (${formatCount(types.search)}) is not the search-crawler visits figure (${formatCount(r.breakdown.search_bot_visits)})`,
    );
  if (notes.length === 0) return [line];
  return [line, mrkdwn`_The service classifies bot types on its own: ${joinMrkdwn(notes, mrkdwn`, and `)}._`];
}

function crawlerLine(r: CrawlerOverview): Mrkdwn | undefined {
  const distribution = [...r.chart.distribution].sort((a, b) => b.count - a.count);
  if (distribution.length === 0) return undefined;
  const shown = distribution
    .slice(0, 8)
    .map(
      (d) => mrkdwn`${inlineText(d.crawler, 40)} ${formatCount(d.count)} (${formatPercent(d.percentage)})`,
    );
  const others = distribution.length > 8 ? mrkdwn` · +${distribution.length - 8} more` : mrkdwn``;
  const sum = distribution.reduce((n, d) => n + (Number.isFinite(d.count) ? d.count : 0), 0);
  // Said once, when the service's split does not add up to its own total.
  const note =
    sum === r.hero.total_visits
      ? mrkdwn``
      : mrkdwn`\n_The crawlers add up to ${formatCount(sum)}, not the ${formatCount(r.hero.total_visits)} AI crawler visits above: the service counts them apart._`;
  return mrkdwn`*By crawler*  ${joinMrkdwn(shown, mrkdwn` · `)}${others}${note}`;
}

function topPagesBlocks(r: CrawlerOverview, blocks: readonly KnownBlock[]): KnownBlock[] {
  const pages = [...r.top_pages].sort((a, b) => b.count - a.count);
  if (pages.length === 0) return [];
  const lines = pages.map((p) => {
    const crawlers = p.crawlers.length
      ? mrkdwn` · ${joinMrkdwn(
          p.crawlers.slice(0, 4).map((c) => inlineText(c, 30)),
          mrkdwn`, `,
        )}${p.crawlers.length > 4 ? mrkdwn` +${p.crawlers.length - 4}` : mrkdwn``}`
      : mrkdwn``;
    return mrkdwn`• ${linkOrText(p.url, undefined, 80)} — ${formatCount(p.count)} ${plural(p.count, mrkdwn`visit`, mrkdwn`visits`)}${crawlers}`;
  });
  const { kept } = takeLinesWithin(lines.slice(0, 8), Math.min(2500, roomLeft(blocks) * 0.55));
  const more = pages.length - kept.length;
  // The service lists its top few: said so when pages were visited beyond them, so the
  // "…and N more" below reads as more of those, not as the rest of the site.
  const visited = r.hero.unique_pages;
  const title =
    visited > pages.length
      ? mrkdwn`*Top ${formatCount(pages.length)} of the ${formatCount(visited)} pages visited*`
      : mrkdwn`*Top pages*`;
  return chunkSections([title, ...kept, ...(more > 0 ? [mrkdwn`…and ${formatCount(more)} more`] : [])]);
}

function recentBlocks(r: CrawlerOverview, blocks: readonly KnownBlock[]): KnownBlock[] {
  if (r.recent_preview.length === 0) return [];
  const lines = r.recent_preview.map((v) => itemLine(v, 300));
  const { kept } = takeLinesWithin(lines.slice(0, 6), Math.min(2000, roomLeft(blocks) - 100));
  return chunkSections([mrkdwn`*Latest visits*`, ...kept]);
}

export function crawlerOverviewReply(input: CrawlerOverviewInput): Reply {
  const { brand, response: r } = input;
  const blocks: KnownBlock[] = compact([
    headerBlock(mrkdwn`AI crawler visits · ${escapeMrkdwn(brand.name)}`),
    periodContext(r, input.today),
    setupWarning(r),
    heroFields(r),
  ]);
  const trend = [dailyLine(r), ...botTypeLines(r), crawlerLine(r)].filter(
    (l): l is Mrkdwn => l !== undefined,
  );
  blocks.push(sectionBlock(joinMrkdwn(trend, mrkdwn`\n`)));
  blocks.push(...topPagesBlocks(r, blocks));
  blocks.push(...recentBlocks(r, blocks));
  const h = r.hero;
  const change =
    typeof h.total_visits_change === 'number'
      ? mrkdwn` (${formatSignedPercent(h.total_visits_change)})`
      : mrkdwn``;
  return {
    text: fallbackText(
      mrkdwn`AI crawler visits for ${escapeMrkdwn(brand.name)}, ${span(r.range.start.slice(0, 10), r.range.end.slice(0, 10))}: ${formatCount(h.total_visits)}${change}, ${formatCount(h.unique_pages)} pages visited, top crawler ${inlineText(h.top_crawler ?? 'none', 60)}.`,
    ),
    blocks,
  };
}
