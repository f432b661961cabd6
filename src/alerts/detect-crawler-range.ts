/**
 * AI crawler visits judged against the brand's usual range (crawler-normal-range.ts)
 * instead of a fixed cut-off, and the choice between the two per subscription
 * (`crawler-alerts=range|threshold`, `auto` by default: the range once the history allows
 * one). A level like the threshold rule: it alerts on first sight, once per fall (one
 * alert when the week falls below the range, one recovery notice when it is back inside),
 * with the same alert kinds, so snooze, mute and quiet hours treat both alike.
 */

import { countFigure, figureName } from '../figures/glossary.js';
import { countText, percentText, signedPercentText } from '../figures/number-text.js';
import { counted, possessive } from '../figures/plural.js';
import type { AlertSettings } from './alert-settings.js';
import {
  type DailyVisits,
  MIN_RANGE_HISTORY_DAYS,
  type NormalRange,
  normalRange,
} from './crawler-normal-range.js';
import {
  type CrawlerDetection,
  type CrawlerPeriods,
  type CrawlerState,
  crawlersThatFellMost,
  detectCrawler,
  INITIAL_CRAWLER_STATE,
  moverLine,
  periodWords,
} from './detect-crawler.js';
import type { Alert, BrandRef } from './types.js';

export interface CrawlerRuleChoice {
  rule: 'range' | 'threshold';
  /** Why, in words: "range: 5 weeks of history", "threshold −40 %: only 9 days of history so far". */
  why: string;
}

function historyWords(days: number): string {
  return days >= 14 ? counted(Math.floor(days / 7), 'week') : counted(days, 'day');
}

/** Which rule judges this subscription's crawler visits, given the brand's history. */
export function chooseCrawlerRule(
  settings: Pick<AlertSettings, 'crawlerAlerts' | 'crawlerDropPct'>,
  historyDays: number,
  rangeAvailable: boolean,
): CrawlerRuleChoice {
  const threshold = `threshold ${signedPercentText(-settings.crawlerDropPct)}`;
  if (settings.crawlerAlerts === 'threshold')
    return { rule: 'threshold', why: `${threshold}: chosen in the settings` };
  if (rangeAvailable) return { rule: 'range', why: `range: ${historyWords(historyDays)} of history` };
  // Enough days but not enough whole weeks: days missing in between, or the weeks before a
  // fall still being reported are too few to learn from.
  const sofar =
    historyDays === 0
      ? 'no AI crawler visits recorded yet'
      : historyDays >= MIN_RANGE_HISTORY_DAYS
        ? 'not enough whole weeks of history to learn from yet'
        : `only ${counted(historyDays, 'day')} of history so far`;
  return {
    rule: 'threshold',
    why: `${threshold}: ${sofar}; the usual range needs ${MIN_RANGE_HISTORY_DAYS} days`,
  };
}

/** "usual range for these days −6 % to +8 %". */
function rangeWords(r: Pick<NormalRange, 'lowPct' | 'highPct'>): string {
  return `usual range for these days ${signedPercentText(r.lowPct)} to ${signedPercentText(r.highPct)}`;
}

function basisWords(r: NormalRange): string {
  return r.basis === 'weekday'
    ? `learned weekday by weekday from the ${counted(r.weeks, 'week')} before`
    : `learned from the ${counted(r.weeks, 'week')} before (weekday by weekday once there are 3)`;
}

const visits = (n: number) => countFigure('aiCrawlerVisits', n);

function rangeAlert(
  kind: 'crawler_drop' | 'crawler_recovered',
  r: NormalRange,
  periods: CrawlerPeriods,
  brand: BrandRef,
  episode: number,
  nowMs: number,
): Alert {
  const p = periods.current;
  const visited = `AI crawlers visited ${possessive(brand.name)} site ${counted(r.actual, 'time')} ${periodWords(p)}`;
  const change = `${signedPercentText(r.changePct)} this week; ${rangeWords(r)}`;
  const base = {
    brandId: brand.id,
    brandName: brand.name,
    key: `${kind}:${brand.id}:${r.end}:e${episode}`,
    before: visits(Math.round(r.expected)),
    after: visits(r.actual),
    open: { view: 'crawler' as const, params: { range: `${p.start}..${p.end}`, compare: 'true' } },
    detectedAtMs: nowMs,
  };
  if (kind === 'crawler_recovered') {
    return {
      ...base,
      kind,
      title: `${figureName('aiCrawlerVisits')} back in their usual range`,
      whatChanged: `${visited}, about ${countText(Math.round(r.expected))} is usual: ${change}.`,
      whyItMatters: 'The fall reported earlier is over: crawlers are reading the site as often as usual.',
      whatToDo: 'Nothing urgent. If you changed something to fix it, note what worked.',
      subject: change,
    };
  }
  const movers = crawlersThatFellMost(periods);
  const named = movers.length > 0 ? ` Fell most: ${movers.map(moverLine).join('; ')}.` : '';
  return {
    ...base,
    kind,
    title: `${figureName('aiCrawlerVisits')} down ${percentText(-r.changePct)}, below their usual range`,
    whatChanged: `${visited}, about ${countText(Math.round(r.expected))} is usual: ${change}.${named}`,
    whyItMatters: `The usual range is ${basisWords(r)}, so this is more than the site's normal ups and downs. AI models can only cite pages their crawlers can read.`,
    whatToDo:
      'Open the crawler view: check robots.txt and firewall/CDN rules for blocked bots, server errors, and recent site or DNS changes.',
    subject: change,
  };
}

interface CrawlerVisitsInput {
  periods: CrawlerPeriods;
  /** Daily visits the bot knows (stored days and this run's series). */
  history: DailyVisits;
}

interface CrawlerVisitsDetection extends CrawlerDetection {
  choice: CrawlerRuleChoice;
}

function detectByRange(
  state: CrawlerState,
  r: NormalRange,
  input: CrawlerVisitsInput,
  brand: BrandRef,
  nowMs: number,
) {
  const next = { ...state, lastChangePct: r.changePct };
  if (!state.dropping && r.changePct < r.lowPct) {
    const episode = state.episode + 1;
    const alert = rangeAlert('crawler_drop', r, input.periods, brand, episode, nowMs);
    return { alerts: [alert], next: { ...next, dropping: true, episode, since: r.start } };
  }
  if (state.dropping && r.changePct >= r.lowPct) {
    const alert = rangeAlert('crawler_recovered', r, input.periods, brand, state.episode, nowMs);
    return { alerts: [alert], next: { ...next, dropping: false, since: null } };
  }
  return { alerts: [], next };
}

/**
 * One subscription's crawler detection: the usual range when its setting and the brand's
 * history allow, else the fixed threshold (detect-crawler.ts); the choice is returned so
 * the job and `status` can say which applied and why.
 */
export function detectCrawlerVisits(
  prev: CrawlerState | null,
  input: CrawlerVisitsInput,
  settings: AlertSettings,
  brand: BrandRef,
  nowMs: number,
): CrawlerVisitsDetection {
  const state = { ...INITIAL_CRAWLER_STATE, ...prev };
  const learnBefore = state.dropping ? state.since : null;
  const { historyDays, range } = normalRange({
    history: input.history,
    endDate: input.periods.current.end,
    learnBefore,
  });
  const choice = chooseCrawlerRule(settings, historyDays, range !== null);
  if (choice.rule === 'range' && range)
    return { ...detectByRange(state, range, input, brand, nowMs), choice };
  const d = detectCrawler(prev, input.periods, settings, brand, nowMs);
  const since = d.next.dropping ? (state.dropping ? state.since : input.periods.current.start) : null;
  return { alerts: d.alerts, next: { ...d.next, since }, choice };
}
