/**
 * AI crawler traffic to a brand's own site: visits per UTC day per crawler, spread over
 * the site's pages, and the individual visits behind those counts. Every number is a
 * function of (brand, day, crawler, page), so any date range can be answered without
 * stored history, and a staged drop (`setCrawlerTraffic`) scales the recent days only.
 *
 * One story: a day's visits of a crawler are split over the pages in whole numbers
 * (largest remainder), and the individual visits are exactly those, so the overview's
 * total, the pages and paths, the crawlers, the live stream and the drawers add up to the
 * same figures for any range. Crawlers that robots.txt disallows fetch only robots.txt,
 * which therefore is a page of its own.
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
  /** robots.txt: fetched only by the crawlers it disallows. */
  readonly robots?: boolean;
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
  /** a day's visits of one crawler per page (indexes of `pages`), summing to `visits` */
  allocation(day: number, crawlerIndex: number): readonly number[];
  /** a day's individual visits, newest first; today's stop at `now` */
  eventsOfDay(day: number): VisitEvent[];
}

export interface RangeTotals {
  readonly days: number[];
  /** [dayOffset][crawlerIndex] */
  readonly byDay: number[][];
  /** [pageIndex][crawlerIndex] */
  readonly byPage: number[][];
  /** [dayOffset][pageIndex], all crawlers */
  readonly byDayPage: number[][];
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

function sitePagesOf(profile: BrandProfile): SitePage[] {
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

interface TrafficModelInput {
  profile: BrandProfile;
  policy: AccessPolicy;
  override: TrafficOverride | null;
  /** Weekends this share below weekdays (a seasonal site); null/absent: the mild default rhythm. */
  weekendDip?: number | null;
  trackingStartDay: number;
  now: number;
}

/** robots.txt as a page of the site, for the crawlers that may fetch nothing else. */
function robotsPage(profile: BrandProfile): SitePage {
  return {
    id: `pg_${shortId(`${profile.id}:/robots.txt`, 12)}`,
    path: '/robots.txt',
    url: `${profile.website}/robots.txt`,
    title: 'robots.txt',
    section: '/robots.txt',
    status: 'crawled',
    weight: 0,
    robots: true,
  };
}

/** `total` split in proportion to `weights`, in whole numbers that add up to it. */
function splitWhole(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (total <= 0 || sum <= 0) return weights.map(() => 0);
  const exact = weights.map((w) => (total * w) / sum);
  const out = exact.map(Math.floor);
  let left = total - out.reduce((a, b) => a + b, 0);
  const byRemainder = exact
    .map((x, i) => ({ i, r: x - Math.floor(x) }))
    .sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of byRemainder) {
    if (left <= 0) break;
    out[i]! += 1;
    left -= 1;
  }
  return out;
}

// Long by design: the simulator's deterministic traffic tables, then one short query function each (visits, range, events, last crawl).
export function createTrafficModel(input: TrafficModelInput): TrafficModel {
  const { profile, policy, override, trackingStartDay, now } = input;
  const dip = input.weekendDip ?? null;
  const today = Math.floor(now / DAY_MS);
  const robotsOnly = (c: CrawlerInfo) => policy.robotsDisallow.includes(c.id);
  const site = sitePagesOf(profile);
  const pages = CRAWLERS.some(robotsOnly) ? [...site, robotsPage(profile)] : site;
  const affinity = pages.map((p, pi) =>
    CRAWLERS.map((c) => {
      // Training crawlers read docs and blogs; search and user agents go for product pages.
      const docsLike = /^\/(docs|blog|journal|resources|research)/.test(p.path);
      const bias = c.intent === 'training' ? (docsLike ? 1.4 : 0.8) : docsLike ? 0.8 : 1.3;
      return bias * (0.6 + 0.8 * unitFrom(`aff:${profile.id}:${pi}:${c.id}`));
    }),
  );

  const pageWeight = (pi: number, ci: number, day: number) => {
    const page = pages[pi]!;
    // Crawlers that respect a robots.txt Disallow only come back for robots.txt itself.
    if (robotsOnly(CRAWLERS[ci]!)) return page.robots ? 1 : 0;
    if (page.robots || (page.status === 'cold' && day > today - COLD_AFTER_DAYS)) return 0;
    return page.weight * affinity[pi]![ci]!;
  };

  const visits = (day: number, crawler: CrawlerInfo): number => {
    if (day < trackingStartDay || day > today) return 0;
    const weekday = new Date(day * DAY_MS).getUTCDay();
    const weekend = weekday === 0 || weekday === 6;
    const weekly = dip === null ? (weekend ? 0.82 : 1.05) : weekend ? 1 - dip : 1;
    const growth = 1 + (day - trackingStartDay) * 0.0015;
    const noise = 0.85 + 0.3 * unitFrom(`visits:${profile.id}:${day}:${crawler.id}`);
    const robots = robotsOnly(crawler) ? 0.06 : 1;
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

  const allocation = (day: number, ci: number): number[] =>
    splitWhole(
      visits(day, CRAWLERS[ci]!),
      pages.map((_, pi) => pageWeight(pi, ci, day)),
    );

  const range = (startDay: number, endDay: number): RangeTotals => {
    const days: number[] = [];
    for (let d = startDay; d <= endDay; d++) days.push(d);
    const byDay = days.map((d) => CRAWLERS.map((c) => visits(d, c)));
    const byPage = pages.map(() => CRAWLERS.map(() => 0));
    const byDayPage = days.map(() => pages.map(() => 0));
    days.forEach((day, di) => {
      CRAWLERS.forEach((_, ci) => {
        if (byDay[di]![ci] === 0) return;
        allocation(day, ci).forEach((n, pi) => {
          byPage[pi]![ci]! += n;
          byDayPage[di]![pi]! += n;
        });
      });
    });
    const byCrawler = CRAWLERS.map((_, ci) => byDay.reduce((s, row) => s + row[ci]!, 0));
    return { days, byDay, byPage, byDayPage, byCrawler, total: byCrawler.reduce((a, b) => a + b, 0) };
  };

  const statusFor = (crawler: CrawlerInfo, page: SitePage, roll: number): number => {
    if (policy.firewallBlocked.includes(crawler.id)) return 403;
    if (page.robots) return 200;
    if (roll < 0.02) return 404;
    if (roll < 0.04) return 301;
    if (roll < 0.07 && page.status !== 'cold') return 304;
    return 200;
  };

  const eventsCache = new Map<number, VisitEvent[]>();
  const eventsOfDay = (day: number): VisitEvent[] => {
    const cached = eventsCache.get(day);
    if (cached) return cached;
    const dayStart = day * DAY_MS;
    // Today's visits are squeezed into the part of the day that has happened.
    const span = day === today ? Math.max(1, now - dayStart) : DAY_MS;
    const events: VisitEvent[] = [];
    CRAWLERS.forEach((crawler, ci) => {
      const n = visits(day, crawler);
      if (n === 0) return;
      const rng = createRandom(`events:${profile.id}:${day}:${crawler.id}`);
      // Exactly the day's split over the pages, in a random order.
      const order = allocation(day, ci).flatMap((count, pi) => Array<number>(count).fill(pi));
      for (let i = order.length - 1; i > 0; i--) {
        const j = Math.floor(rng.next() * (i + 1));
        [order[i], order[j]] = [order[j]!, order[i]!];
      }
      order.forEach((pi, i) => {
        const at = dayStart + Math.floor(((i + rng.next()) / n) * span);
        const page = pages[pi]!;
        events.push({
          id: `vis_${day}_${ci}_${i}`,
          url: page.url,
          path: page.path,
          crawler: crawler.name,
          crawler_id: crawler.id,
          platform: crawler.platform,
          intent: crawler.intent,
          bot_type: crawler.botType,
          visited_at: new Date(at).toISOString(),
          status_code: statusFor(crawler, page, rng.next()),
          response_ms: rng.int(38, 420),
        });
      });
    });
    events.sort((a, b) =>
      a.visited_at < b.visited_at ? 1 : a.visited_at > b.visited_at ? -1 : a.id < b.id ? -1 : 1,
    );
    eventsCache.set(day, events);
    return events;
  };

  /** The latest visit in the stream; a page quiet for the last days, its last day. */
  const lastCrawledAt = (page: SitePage): number | null => {
    for (let day = today; day >= Math.max(trackingStartDay, today - 6); day--) {
      const latest = eventsOfDay(day).find((e) => e.url === page.url);
      if (latest) return Date.parse(latest.visited_at);
    }
    const lastDay =
      page.status === 'cold'
        ? today - COLD_AFTER_DAYS - 1 - Math.floor(unitFrom(`cold:${page.id}`) * 30)
        : today - 7;
    if (lastDay < trackingStartDay) return null;
    return lastDay * DAY_MS + Math.floor(unitFrom(`last:${page.id}:${lastDay}`) * DAY_MS);
  };

  return {
    pages,
    today,
    trackingStartDay,
    visits,
    range,
    lastCrawledAt,
    allocation: (day, ci) =>
      day < trackingStartDay || day > today ? pages.map(() => 0) : allocation(day, ci),
    eventsOfDay,
  };
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
