/**
 * AI crawler visits, 7 days vs the previous 7 (docs/alert-semantics.md). A level, not
 * an event: it alerts on first sight, including the first run after subscribing. Hysteresis
 * keeps it quiet while the fall persists: one alert when visits fall by `crawlerDropPct` or
 * more, one recovery notice when the fall is back under `crawlerRecoveryPct`, nothing in
 * between.
 */

import type { CrawlerOverview } from '../api/schemas/crawler.js';
import { dayCount, daysIncluded, periodText } from '../figures/day-text.js';
import { countFigure, figureName } from '../figures/glossary.js';
import { countText, percentChange, percentText, signedPercentText } from '../figures/number-text.js';
import { counted, possessive } from '../figures/plural.js';
import { dateOfDay, dayNumber } from '../utc-days.js';
import type { AlertSettings } from './alert-settings.js';
import type { Alert, BrandRef } from './types.js';

export interface PeriodCounts {
  /** First and last day, inclusive, YYYY-MM-DD (UTC dates as the API reports them). */
  start: string;
  end: string;
  total: number;
  byCrawler: Record<string, number>;
  /**
   * Visits per day (YYYY-MM-DD → count, every day of the period, missing days 0), for the
   * digest chart. Absent in observations stored before it was added.
   */
  byDay?: Record<string, number>;
}

export interface CrawlerPeriods {
  current: PeriodCounts;
  previous: PeriodCounts;
}

export interface CrawlerState {
  dropping: boolean;
  /** Counts drop episodes; part of the alert keys so each episode has its own. */
  episode: number;
  /** Last computed change in % (negative = fewer visits); null when not computable. */
  lastChangePct: number | null;
  /**
   * While dropping: the first day of the week that raised the alert. The usual range is
   * learned only from days before it (crawler-normal-range.ts `learnBefore`).
   */
  since?: string | null;
}

/** `since` is left out (absent reads as none), so states stored before it read back unchanged. */
export const INITIAL_CRAWLER_STATE: CrawlerState = { dropping: false, episode: 0, lastChangePct: null };

/**
 * Splits a 14-day `chart.series` (ask the overview for `range_preset=custom` over the 14
 * days ending `endDate`) into the last 7 days and the 7 before. Days outside both periods
 * are ignored, missing days count as zero.
 */
export function periodsFromOverview(overview: CrawlerOverview, endDate: string, days = 7): CrawlerPeriods {
  const end = dayNumber(endDate);
  if (Number.isNaN(end)) throw new RangeError(`endDate must be YYYY-MM-DD, got "${endDate}"`);
  const make = (first: number): PeriodCounts => ({
    start: dateOfDay(first),
    end: dateOfDay(first + days - 1),
    total: 0,
    byCrawler: {},
    byDay: Object.fromEntries(Array.from({ length: days }, (_, i) => [dateOfDay(first + i), 0])),
  });
  const current = make(end - days + 1);
  const previous = make(end - 2 * days + 1);
  for (const point of overview.chart.series) {
    const d = dayNumber(point.date);
    const period =
      d > end - days && d <= end ? current : d > end - 2 * days && d <= end - days ? previous : null;
    if (!period) continue;
    period.total += point.count;
    const day = dateOfDay(d);
    if (period.byDay) period.byDay[day] = (period.byDay[day] ?? 0) + point.count;
    for (const [crawler, n] of Object.entries(point.by_crawler)) {
      period.byCrawler[crawler] = (period.byCrawler[crawler] ?? 0) + n;
    }
  }
  return { current, previous };
}

/** Change of total visits in %, negative for a fall; null when the previous period had none. */
export function crawlerChangePct(p: CrawlerPeriods): number | null {
  if (p.previous.total <= 0) return null;
  return ((p.current.total - p.previous.total) / p.previous.total) * 100;
}

export interface CrawlerMover {
  crawler: string;
  previous: number;
  current: number;
}

/** Crawlers ordered by how many visits they lost, largest loss first. */
export function crawlersThatFellMost(p: CrawlerPeriods, limit = 3): CrawlerMover[] {
  const names = new Set([...Object.keys(p.previous.byCrawler), ...Object.keys(p.current.byCrawler)]);
  return [...names]
    .map((crawler) => ({
      crawler,
      previous: p.previous.byCrawler[crawler] ?? 0,
      current: p.current.byCrawler[crawler] ?? 0,
    }))
    .filter((m) => m.current < m.previous)
    .sort((a, b) => b.previous - b.current - (a.previous - a.current) || a.crawler.localeCompare(b.crawler))
    .slice(0, limit);
}

const fmt = countText;
const visits = (n: number) => countFigure('aiCrawlerVisits', n);

export function moverLine(m: CrawlerMover): string {
  const change = m.previous > 0 ? ` (${signedPercentText(percentChange(m.previous, m.current))})` : '';
  return `${m.crawler} ${fmt(m.previous)} → ${fmt(m.current)}${change}`;
}

/** "in the 7 days to Nov 26, 2026": the period the figures cover, by its real end. */
export function periodWords(p: PeriodCounts): string {
  return `in the ${periodText(daysIncluded(p.start, p.end), p.end)}`;
}

export interface CrawlerDetection {
  alerts: Alert[];
  next: CrawlerState;
}

export function detectCrawler(
  prev: CrawlerState | null,
  periods: CrawlerPeriods,
  settings: AlertSettings,
  brand: BrandRef,
  nowMs: number,
): CrawlerDetection {
  const state = prev ?? INITIAL_CRAWLER_STATE;
  const change = crawlerChangePct(periods);
  // No visits in the previous period: no baseline to fall from, and "down 100 %" from
  // nothing would be noise. The state is left as it was.
  if (change === null) return { alerts: [], next: state };
  const fall = -change;
  const days = daysIncluded(periods.previous.start, periods.previous.end);
  const before = `in the ${dayCount(days)} before`;
  // The button opens the overview on these very days, compared with the days before: the
  // service's own change over them is the figure this alert reports.
  const open = {
    view: 'crawler' as const,
    params: { range: `${periods.current.start}..${periods.current.end}`, compare: 'true' },
  };

  if (!state.dropping && fall >= settings.crawlerDropPct) {
    const episode = state.episode + 1;
    const movers = crawlersThatFellMost(periods);
    const named = movers.length > 0 ? ` Fell most: ${movers.map(moverLine).join('; ')}.` : '';
    const alert: Alert = {
      kind: 'crawler_drop',
      brandId: brand.id,
      brandName: brand.name,
      key: `crawler_drop:${brand.id}:${periods.current.end}:e${episode}`,
      title: `${figureName('aiCrawlerVisits')} down ${percentText(fall)}`,
      whatChanged: `AI crawlers visited ${possessive(brand.name)} site ${counted(periods.current.total, 'time')} ${periodWords(periods.current)}, down from ${fmt(periods.previous.total)} ${before}.${named}`,
      before: visits(periods.previous.total),
      after: visits(periods.current.total),
      whyItMatters:
        'AI models can only cite and recommend pages their crawlers can read; fewer visits usually means stale or missing answers about you.',
      whatToDo:
        'Open the crawler view: check robots.txt and firewall/CDN rules for blocked bots, server errors, and recent site or DNS changes.',
      subject:
        movers.length > 0
          ? movers.map(moverLine).join('; ')
          : `${fmt(periods.previous.total)} → ${fmt(periods.current.total)}`,
      open,
      detectedAtMs: nowMs,
    };
    return { alerts: [alert], next: { dropping: true, episode, lastChangePct: change } };
  }

  if (state.dropping && fall < settings.crawlerRecoveryPct) {
    const alert: Alert = {
      kind: 'crawler_recovered',
      brandId: brand.id,
      brandName: brand.name,
      key: `crawler_recovered:${brand.id}:${periods.current.end}:e${state.episode}`,
      title: `${figureName('aiCrawlerVisits')} recovered`,
      whatChanged: `AI crawlers visited ${possessive(brand.name)} site ${counted(periods.current.total, 'time')} ${periodWords(periods.current)} vs ${fmt(periods.previous.total)} ${before}, ${change >= 0 ? `up ${percentText(change)}` : `down only ${percentText(fall)}`}.`,
      before: visits(periods.previous.total),
      after: visits(periods.current.total),
      whyItMatters: `The fall reported earlier is back under ${settings.crawlerRecoveryPct} %, so crawlers are reading the site again.`,
      whatToDo: 'Nothing urgent. If you changed something to fix it, note what worked.',
      subject: `${fmt(periods.previous.total)} → ${fmt(periods.current.total)}`,
      open,
      detectedAtMs: nowMs,
    };
    return { alerts: [alert], next: { dropping: false, episode: state.episode, lastChangePct: change } };
  }

  return { alerts: [], next: { ...state, lastChangePct: change } };
}
