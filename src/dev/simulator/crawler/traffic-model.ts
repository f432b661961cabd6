/**
 * AI crawler traffic to a brand's own site: visits per UTC day per crawler, spread over
 * the site's pages, and the individual visits behind those counts. Every number is a
 * function of (brand, day, crawler, page), so any date range can be answered without
 * stored history, and a staged drop (`setCrawlerTraffic`) scales the recent days only.
 */

import { DAY_MS } from '../../../utc-days.js';
import type { BrandProfile } from '../brand-profiles.js';
import { createRandom, shortId, unitFrom } from '../random.js';
import type { AccessPolicy } from './access-policy.js';
import { CRAWLERS, type CrawlerInfo } from './crawlers.js';

export type PageStatus = 'converting' | 'cited' | 'crawled' | 'healthy' | 'cold';
export const PAGE_STATUSES: readonly PageStatus[] = ['converting', 'cited', 'crawled', 'healthy', 'cold'];

/** How far a status sits along discovered → crawled → healthy → cited → converting. */
export const STATUS_RANK: Record<PageStatus, number> = {
  cold: 0,
  crawled: 1,
  healthy: 2,
  cited: 3,
  converting: 4,
};

/** Days of tracked history a fresh simulator has. */
export const TRACKED_DAYS = 120;
/** A cold page has had no AI crawler visit for at least this many days. */
const COLD_AFTER_DAYS = 35;

export interface SitePage {
  readonly id: string;
  readonly path: string;
  readonly url: string;
  readonly title: string;
  /** first path segment, e.g. "/blog"; "/" for the home page */
  readonly section: string;
  readonly status: PageStatus;
  readonly weight: number;
}

export interface TrafficOverride {
  readonly factor: number;
  /** first epoch day scaled; every later day is scaled too */
  readonly fromDay: number;
  /** crawler ids; null = all */
  readonly crawlers: readonly string[] | null;
}

export interface VisitEvent {
  id: string;
  url: string;
  path: string;
  crawler: string;
  crawler_id: string;
  platform: string;
  intent: string;
  bot_type: string;
  visited_at: string;
  status_code: number;
  response_ms: number;
}

export interface TrafficModel {
  readonly pages: readonly SitePage[];
  readonly today: number;
  readonly trackingStartDay: number;
  visits(day: number, crawler: CrawlerInfo): number;
  /** visits[day offset][crawler index] and page totals for an inclusive day range */
  range(startDay: number, endDay: number): RangeTotals;
  /** epoch ms of a page's latest AI crawler visit, or null if never */
  lastCrawledAt(page: SitePage): number | null;
  /** a day's individual visits, newest first; today's stop at `now` */
  eventsOfDay(day: number): VisitEvent[];
}

export interface RangeTotals {
  readonly days: number[];
  /** [dayOffset][crawlerIndex] */
  readonly byDay: number[][];
  /** [pageIndex][crawlerIndex] */
  readonly byPage: number[][];
  readonly byCrawler: number[];
  readonly total: number;
}

const titleOf = (path: string, brand: string) =>
  path === '/'
    ? `${brand} | Home`
    : `${path
        .split('/')
        .filter(Boolean)
        .at(-1)!
        .split('-')
        .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
        .join(' ')} | ${brand}`;

export function sitePagesOf(profile: BrandProfile): SitePage[] {
  const weights = profile.sitePaths.map(
    (_, i) => (0.7 + 0.6 * unitFrom(`page-w:${profile.id}:${i}`)) / (i + 1) ** 0.8,
  );
  const ranked = weights.map((w, i) => ({ w, i })).sort((a, b) => b.w - a.w);
  const n = ranked.length;
  const statusByIndex = new Map<number, PageStatus>();
  ranked.forEach(({ i }, rank) => {
    // The most visited pages convert or get cited; the long tail goes cold.
    const status: PageStatus =
      rank < 3
        ? 'converting'
        : rank < n * 0.35
          ? 'cited'
          : rank < n * 0.6
            ? 'healthy'
            : rank < n * 0.85
              ? 'crawled'
              : 'cold';
    statusByIndex.set(i, status);
  });
  return profile.sitePaths.map((path, i) => ({
    id: `pg_${shortId(`${profile.id}:${path}`, 12)}`,
    path,
    url: `${profile.website}${path === '/' ? '/' : path}`,
    title: titleOf(path, profile.name),
    section: path === '/' ? '/' : `/${path.split('/')[1]}`,
    status: statusByIndex.get(i)!,
    weight: weights[i]!,
  }));
}

export interface TrafficModelInput {
  profile: BrandProfile;
  policy: AccessPolicy;
  override: TrafficOverride | null;
  trackingStartDay: number;
  now: number;
}

export function createTrafficModel(input: TrafficModelInput): TrafficModel {
  const { profile, policy, override, trackingStartDay, now } = input;
  const today = Math.floor(now / DAY_MS);
  const pages = sitePagesOf(profile);
  const affinity = pages.map((p, pi) =>
    CRAWLERS.map((c) => {
      // Training crawlers read docs and blogs; search and user agents go for product pages.
      const docsLike = /^\/(docs|blog|journal|resources|research)/.test(p.path);
      const bias = c.intent === 'training' ? (docsLike ? 1.4 : 0.8) : docsLike ? 0.8 : 1.3;
      return bias * (0.6 + 0.8 * unitFrom(`aff:${profile.id}:${pi}:${c.id}`));
    }),
  );

  const pageWeight = (pi: number, ci: number, day: number) =>
    pages[pi]!.status === 'cold' && day > today - COLD_AFTER_DAYS
      ? 0
      : pages[pi]!.weight * affinity[pi]![ci]!;

  const visits = (day: number, crawler: CrawlerInfo): number => {
    if (day < trackingStartDay || day > today) return 0;
    const weekday = new Date(day * DAY_MS).getUTCDay();
    const weekly = weekday === 0 || weekday === 6 ? 0.82 : 1.05;
    const growth = 1 + (day - trackingStartDay) * 0.0015;
    const noise = 0.85 + 0.3 * unitFrom(`visits:${profile.id}:${day}:${crawler.id}`);
    // Crawlers that respect a robots.txt Disallow only come back for robots.txt itself.
    const robots = policy.robotsDisallow.includes(crawler.id) ? 0.06 : 1;
    let count = profile.dailyCrawlerVisits * crawler.share * weekly * growth * noise * robots;
    if (
      override &&
      day >= override.fromDay &&
      (!override.crawlers || override.crawlers.includes(crawler.id))
    ) {
      count *= override.factor;
    }
    return Math.max(0, Math.round(count));
  };

  const range = (startDay: number, endDay: number): RangeTotals => {
    const days: number[] = [];
    for (let d = startDay; d <= endDay; d++) days.push(d);
    const byDay = days.map((d) => CRAWLERS.map((c) => visits(d, c)));
    const pageFloat = pages.map(() => CRAWLERS.map(() => 0));
    days.forEach((day, di) => {
      CRAWLERS.forEach((_, ci) => {
        const count = byDay[di]![ci]!;
        if (count === 0) return;
        let sum = 0;
        for (let pi = 0; pi < pages.length; pi++) sum += pageWeight(pi, ci, day);
        if (sum === 0) return;
        for (let pi = 0; pi < pages.length; pi++) {
          const row = pageFloat[pi]!;
          row[ci] = row[ci]! + (count * pageWeight(pi, ci, day)) / sum;
        }
      });
    });
    const byCrawler = CRAWLERS.map((_, ci) => byDay.reduce((s, row) => s + row[ci]!, 0));
    return {
      days,
      byDay,
      byPage: pageFloat.map((row) => row.map(Math.round)),
      byCrawler,
      total: byCrawler.reduce((a, b) => a + b, 0),
    };
  };

  const lastCrawledAt = (page: SitePage): number | null => {
    const lastDay =
      page.status === 'cold'
        ? today - COLD_AFTER_DAYS - 1 - Math.floor(unitFrom(`cold:${page.id}`) * 30)
        : today;
    if (lastDay < trackingStartDay) return null;
    const into = Math.floor(unitFrom(`last:${page.id}:${lastDay}`) * DAY_MS);
    return lastDay === today ? Math.min(now, lastDay * DAY_MS + into) : lastDay * DAY_MS + into;
  };

  const statusFor = (crawler: CrawlerInfo, page: SitePage, roll: number): number => {
    if (policy.firewallBlocked.includes(crawler.id)) return 403;
    if (roll < 0.02) return 404;
    if (roll < 0.04) return 301;
    if (roll < 0.07 && page.status !== 'cold') return 304;
    return 200;
  };

  const eventsOfDay = (day: number): VisitEvent[] => {
    const dayStart = day * DAY_MS;
    // Today's visits are squeezed into the part of the day that has happened.
    const span = day === today ? Math.max(1, now - dayStart) : DAY_MS;
    const events: VisitEvent[] = [];
    CRAWLERS.forEach((crawler, ci) => {
      const n = visits(day, crawler);
      if (n === 0) return;
      const rng = createRandom(`events:${profile.id}:${day}:${crawler.id}`);
      const weights = pages.map((_, pi) => pageWeight(pi, ci, day));
      const robotsOnly = policy.robotsDisallow.includes(crawler.id);
      for (let i = 0; i < n; i++) {
        const at = dayStart + Math.floor(((i + rng.next()) / n) * span);
        const page = pages[rng.weighted(weights)]!;
        const path = robotsOnly ? '/robots.txt' : page.path;
        events.push({
          id: `vis_${day}_${ci}_${i}`,
          url: robotsOnly ? `${profile.website}/robots.txt` : page.url,
          path,
          crawler: crawler.name,
          crawler_id: crawler.id,
          platform: crawler.platform,
          intent: crawler.intent,
          bot_type: crawler.botType,
          visited_at: new Date(at).toISOString(),
          // A firewall block answers everything 403, robots.txt included.
          status_code:
            robotsOnly && !policy.firewallBlocked.includes(crawler.id)
              ? 200
              : statusFor(crawler, page, rng.next()),
          response_ms: rng.int(38, 420),
        });
      }
    });
    return events.sort((a, b) =>
      a.visited_at < b.visited_at ? 1 : a.visited_at > b.visited_at ? -1 : a.id < b.id ? -1 : 1,
    );
  };

  return { pages, today, trackingStartDay, visits, range, lastCrawledAt, eventsOfDay };
}

/** Share of visits answered 200/304: what the overview calls crawl efficiency. */
export function crawlEfficiency(policy: AccessPolicy, totals: RangeTotals): number {
  if (totals.total === 0) return 0;
  let ok = 0;
  CRAWLERS.forEach((c, ci) => {
    if (!policy.firewallBlocked.includes(c.id)) ok += totals.byCrawler[ci]! * 0.96;
  });
  return Math.round((ok / totals.total) * 1000) / 10;
}
