/**
 * The weekly summary for one brand in one channel: over the 7 whole days of its week, the
 * cited pages lost and won back (the citation feed's events of that week), the alerts the
 * channel got and what became of them, and the week-over-week figures named by the
 * glossary. Like the digest, each part stands alone: a request that failed makes its part
 * say so, never the whole summary. Pure: data in, a WeeklySummary out.
 */
import type { CitationFeedResponse, CitationHistoryResponse, FeedEvent } from '../api/schemas/citations.js';
import type { FigureId } from '../figures/glossary.js';
import type { DigestUrl, Failed, Unavailable } from './compose-digest.js';
import type { CrawlerPeriods } from './detect-crawler.js';
import type { BrandRef } from './types.js';
import { type WeeklyDue, weekdayName, weeklyKey } from './weekly-due.js';
import { addDays } from './zoned-time.js';

/**
 * What the channel's alerts of the week came to. Filled from what the store keeps: the
 * alert messages written (outbox) and who acknowledged them (audit log), and, once alerts
 * carry an owner and a state (assign, resolve), from those states through `states`.
 */
export interface WeeklyAlertCounts {
  /** Alerts raised in the week (every alert of a grouped message counts). */
  opened: number;
  /** Their kinds (`citation_lost`, …), most frequent first. */
  kinds: string[];
  /** Who acknowledged them, and how many each, most first. */
  acknowledgedBy: { userId: string; count: number }[];
  /** Assign/resolve states, when the store keeps them; absent: only the alerts sent are known. */
  states?: {
    resolved: number;
    stillOpen: number;
    /** Open alerts by owner; null = nobody assigned. */
    openByOwner: { userId: string | null; count: number }[];
  };
}

export interface WeeklyFigure {
  id: FigureId;
  current: number;
  previous: number;
  changePct: number | null;
  /** The days compared: the week's (or its last day) and the one before. */
  currentDays: { start: string; end: string };
  previousDays: { start: string; end: string };
}

export interface WeeklyCitations {
  status: 'ok';
  lostCount: number;
  wonCount: number;
  topLost: DigestUrl[];
  topWon: DigestUrl[];
}

export interface WeeklySummary {
  brandId: string;
  brandName: string;
  /** Dedupe key; the delivery layer adds the channel. */
  key: string;
  /** The day it is scheduled on (local), and the week it covers. */
  date: string;
  start: string;
  end: string;
  /** Sent after its time because the bot was down then; `missedDay` names that day. */
  late: boolean;
  missedDay: string;
  citations: WeeklyCitations | Unavailable;
  alerts: WeeklyAlertCounts | Unavailable;
  /** Week over week, in the glossary's order; a figure whose source failed is left out and named in `unavailable`. */
  figures: WeeklyFigure[];
  unavailable: { id: FigureId; reason: string }[];
}

export interface WeeklyInput {
  brand: BrandRef;
  week: WeeklyDue;
  /** The week as instants in the subscription's zone: feed events are kept when inside it. */
  window: { fromMs: number; toMs: number };
  /** A feed reaching back at least to the week's start. */
  feed: CitationFeedResponse | Failed;
  /** Daily history covering the week and the one before. */
  history: CitationHistoryResponse | Failed;
  /** AI crawler visits of the week's 7 days vs the 7 before. */
  crawler: CrawlerPeriods | Failed;
  alerts: WeeklyAlertCounts | Failed;
  /** How many pages to list per part; default 5. */
  urlLimit?: number;
}

const isFailed = (x: unknown): x is Failed =>
  typeof x === 'object' && x !== null && 'error' in x && typeof (x as Failed).error === 'string';
const unavailable = (f: Failed): Unavailable => ({ status: 'unavailable', reason: f.error });

const toUrl = (ev: FeedEvent): DigestUrl => ({
  url: ev.url,
  domain: ev.domain,
  title: ev.h1?.trim() || null,
  appearances: ev.appearance_count ?? null,
});

/** Pages whose last presence change inside the week was a loss, and those whose last was a (re)gain. */
function citationsOfWeek(feed: CitationFeedResponse, input: WeeklyInput): WeeklyCitations {
  const limit = input.urlLimit ?? 5;
  const last = new Map<string, { ev: FeedEvent; t: number }>();
  for (const ev of feed.events) {
    if (ev.event_type !== 'lost' && ev.event_type !== 'new') continue;
    const t = Date.parse(ev.timestamp);
    if (Number.isNaN(t) || t < input.window.fromMs || t >= input.window.toMs) continue;
    const seen = last.get(ev.url);
    if (!seen || t >= seen.t) last.set(ev.url, { ev, t });
  }
  const finals = [...last.values()].map((x) => x.ev);
  const byCited = (a: FeedEvent, b: FeedEvent) => (b.appearance_count ?? 0) - (a.appearance_count ?? 0);
  const lost = finals.filter((e) => e.event_type === 'lost').sort(byCited);
  const won = finals.filter((e) => e.event_type === 'new').sort(byCited);
  return {
    status: 'ok',
    lostCount: lost.length,
    wonCount: won.length,
    topLost: lost.slice(0, limit).map(toUrl),
    topWon: won.slice(0, limit).map(toUrl),
  };
}

const change = (current: number, previous: number) =>
  previous > 0 ? ((current - previous) / previous) * 100 : null;

/**
 * Citations and brand mentions are counted per day: the week's total against the total of
 * the 7 days before, over the days the history has in each.
 */
function historyFigures(h: CitationHistoryResponse, week: WeeklyDue): WeeklyFigure[] {
  const prevStart = addDays(week.start, -7);
  const prevEnd = addDays(week.end, -7);
  const inRange = (d: string, a: string, b: string) => d >= a && d <= b;
  const points = h.brand_time_series.map((p) => ({ ...p, day: p.date.slice(0, 10) }));
  const cur = points.filter((p) => inRange(p.day, week.start, week.end));
  const prev = points.filter((p) => inRange(p.day, prevStart, prevEnd));
  if (cur.length === 0 || prev.length === 0) return [];
  type Point = (typeof points)[number];
  const pickers = {
    citations: (p: Point) => p.total_citations,
    brandMentions: (p: Point) => p.brand_mentions,
  };
  const sum = (xs: Point[], f: (p: Point) => number) => xs.reduce((n, p) => n + f(p), 0);
  return (['citations', 'brandMentions'] as const).map((id) => {
    const current = sum(cur, pickers[id]);
    const previous = sum(prev, pickers[id]);
    return {
      id,
      current,
      previous,
      changePct: change(current, previous),
      currentDays: { start: week.start, end: week.end },
      previousDays: { start: prevStart, end: prevEnd },
    };
  });
}

/** Cited pages are a count on one day: the feed's two snapshots, with their dates. */
function citedPagesFigure(feed: CitationFeedResponse): WeeklyFigure | null {
  const cur = feed.current_snapshot_date;
  const prev = feed.previous_snapshot_date;
  if (!cur || !prev) return null;
  return {
    id: 'citedPages',
    current: feed.total_current,
    previous: feed.total_previous,
    changePct: change(feed.total_current, feed.total_previous),
    currentDays: { start: cur.slice(0, 10), end: cur.slice(0, 10) },
    previousDays: { start: prev.slice(0, 10), end: prev.slice(0, 10) },
  };
}

function crawlerFigure(p: CrawlerPeriods): WeeklyFigure {
  return {
    id: 'aiCrawlerVisits',
    current: p.current.total,
    previous: p.previous.total,
    changePct: change(p.current.total, p.previous.total),
    currentDays: { start: p.current.start, end: p.current.end },
    previousDays: { start: p.previous.start, end: p.previous.end },
  };
}

function figuresOf(input: WeeklyInput): Pick<WeeklySummary, 'figures' | 'unavailable'> {
  const figures: WeeklyFigure[] = [];
  const missing: WeeklySummary['unavailable'] = [];
  if (isFailed(input.feed)) missing.push({ id: 'citedPages', reason: input.feed.error });
  else {
    const f = citedPagesFigure(input.feed);
    if (f) figures.push(f);
  }
  if (isFailed(input.history)) missing.push({ id: 'citations', reason: input.history.error });
  else figures.push(...historyFigures(input.history, input.week));
  if (isFailed(input.crawler)) missing.push({ id: 'aiCrawlerVisits', reason: input.crawler.error });
  else figures.push(crawlerFigure(input.crawler));
  return { figures, unavailable: missing };
}

export function composeWeekly(input: WeeklyInput): WeeklySummary {
  const { week } = input;
  return {
    brandId: input.brand.id,
    brandName: input.brand.name,
    key: weeklyKey(input.brand.id, week.date),
    date: week.date,
    start: week.start,
    end: week.end,
    late: week.late,
    missedDay: weekdayName(week.date),
    citations: isFailed(input.feed) ? unavailable(input.feed) : citationsOfWeek(input.feed, input),
    alerts: isFailed(input.alerts) ? unavailable(input.alerts) : input.alerts,
    ...figuresOf(input),
  };
}
