/**
 * The simulated service's mutable state: brands with their markets and aliases, content
 * idea generation, citation snapshots, staged crawler traffic, AI Pages usage and search
 * submissions. Built from the seed profiles; `reset` simply builds a new World.
 */
import type { Clock } from '../../clock.js';
import { DAY_MS, epochDay } from '../../utc-days.js';
import { BRAND_PROFILES, type BrandProfile } from './brand-profiles.js';
import {
  appendExplicit,
  appendScripted,
  appendUnchanged,
  buildCitationBook,
  type CitationBook,
  SEED_SNAPSHOTS,
} from './citations/citation-book.js';
import { generateIdeas, type IdeaRecord } from './content-ideas.js';
import { type AccessPolicy, accessPolicyOf } from './crawler/access-policy.js';
import { findCrawler } from './crawler/crawlers.js';
import {
  createTrafficModel,
  TRACKED_DAYS,
  type TrafficModel,
  type TrafficOverride,
} from './crawler/traffic-model.js';
import { dayTimestamp, startOfNextMonth } from './dates.js';
import { uuidFrom } from './random.js';
import { SEED_BRANDS } from './seed-brands.js';
import type { AiPagesUsagePatch, CrawlerRhythmPatch, CrawlerTrafficPatch, SnapshotChanges } from './types.js';

export interface MarketState {
  id: string;
  location: string;
  is_primary: boolean;
  active: boolean;
  created_at: string;
  market_name: string | null;
}

export interface IdeasState {
  generation: number;
  status: 'completed' | 'generating';
  generatedAt: number;
  /** when the running generation started; null when none runs */
  startedAt: number | null;
  ideas: IdeaRecord[];
}

export interface AiPagesState {
  entitled: boolean;
  config: {
    enabled: boolean;
    domain: string;
    platform: string | null;
    features: string[];
    crawlers: string[];
  } | null;
  usage: {
    requests_this_month: number;
    requests_limit: number;
    percentage_used: number;
    reset_date: string;
  } | null;
  /**
   * How the usage grows with the clock: `percentage` at `atMs`, plus `perDay` points a day
   * since (settleAiPagesUsage). Set again whenever the usage is set.
   */
  growth: { perDay: number; percentage: number; atMs: number };
}

export interface Submission {
  id: string;
  urls: string[];
  submittedAt: number;
  completesAt: number;
  /** why it will fail once processed; null = it will succeed */
  error: string | null;
}

export interface BrandState {
  readonly profile: BrandProfile;
  location: string | null;
  region: string | null;
  city: string | null;
  providerCode: number | null;
  markets: MarketState[];
  aliases: string[];
  /** counter that keeps generated market ids unique */
  marketSeq: number;
  aiPages: AiPagesState;
  ideas: IdeasState;
  readonly citations: CitationBook;
  traffic: TrafficOverride | null;
  /** Weekends this share below weekdays (a seasonal site); null: the brand's own rhythm. */
  weekendDip: number | null;
  submissions: Submission[];
  /** Crawler ids robots.txt blocks besides the seed policy (the blocked-crawler scenario). */
  blockedCrawlers: string[];
}

export interface World {
  readonly brands: ReadonlyMap<string, BrandState>;
  readonly clock: Clock;
  readonly generationMs: number;
  /** today's epoch day by the clock */
  today(): number;
  /** index of the current (latest) snapshot */
  snapshotIndex(): number;
  /**
   * epoch day of snapshot `index`: a day apart, the latest today, unless research runs were
   * published faster than the clock moved (the demo's `:advance`): then the new ones take
   * the days after, and no day's data is ever shown again under another date.
   */
  dayOfSnapshot(index: number): number;
  /** finishes a generation whose time has come (lazily, so fake clocks work) */
  settleIdeas(brand: BrandState): IdeasState;
  /** Brings AI Pages usage up to the clock (it grows; a new billing period starts from 0). */
  settleAiPagesUsage(brand: BrandState): AiPagesState;
  startGeneration(brand: BrandState): boolean;
  newMarket(brand: BrandState, location: string, isPrimary: boolean, name: string | null): MarketState;
  trafficModel(brand: BrandState): TrafficModel;
  advanceSnapshot(changes?: SnapshotChanges): void;
  setAiPagesUsage(brandId: string, patch: AiPagesUsagePatch): void;
  setCrawlerTraffic(brandId: string, patch: CrawlerTrafficPatch): void;
  setCrawlerRhythm(brandId: string, patch: CrawlerRhythmPatch): void;
  /** See SimulatorControl.blockCrawler. */
  blockCrawler(brandId: string, crawler: string, blocked: boolean, days?: number): void;
  /**
   * The site's access policy as the Access tab reports it, with the scenario's blocks. The
   * traffic model keeps the seed policy: a block staged now shows as a fall from now on,
   * through the traffic override, not as a history that was always low.
   */
  accessPolicy(b: BrandState): AccessPolicy;
  brand(brandId: string): BrandState;
}

const IDEAS_RUN_MS_INTO_DAY = 6 * 3_600_000;

// Long by design: the simulated service's world, shared state with one short accessor per thing it simulates; each reads alone.
export function createWorld(
  clock: Clock,
  generationMs: number,
  profiles: readonly BrandProfile[] = BRAND_PROFILES,
): World {
  const startDay = epochDay(clock.now());
  const trackingStartDay = startDay - TRACKED_DAYS + 1;
  const brands = new Map<string, BrandState>();
  /**
   * Citation books are built on first use: a simulator of thousands of brands starts at
   * once and holds only the books someone asked for. Every advance is logged and replayed
   * on a late build; scripted changes depend only on the brand and the snapshot index, so
   * a book built late is the one an eager build would hold.
   */
  const books = new Map<string, CitationBook>();
  const advances: ({ target: string; changes: SnapshotChanges } | null)[] = [];
  const bookOf = (profile: BrandProfile): CitationBook => {
    let book = books.get(profile.id);
    if (!book) {
      book = buildCitationBook(profile);
      for (const a of advances) {
        if (a === null) appendScripted(book, profile);
        else if (a.target === profile.id) appendExplicit(book, profile, a.changes);
        else appendUnchanged(book);
      }
      books.set(profile.id, book);
    }
    return book;
  };

  const newMarket = (
    brand: BrandState,
    location: string,
    isPrimary: boolean,
    name: string | null,
    createdAt?: string,
  ) => {
    brand.marketSeq += 1;
    return {
      id: uuidFrom(`market:${brand.profile.id}:${location}:${brand.marketSeq}`),
      location,
      is_primary: isPrimary,
      active: true,
      created_at: createdAt ?? new Date(clock.now()).toISOString(),
      market_name: name,
    };
  };

  for (const profile of profiles) {
    const setup = profile.aiPages.setup;
    const ideasAt = (startDay - 1) * DAY_MS + IDEAS_RUN_MS_INTO_DAY;
    const brand: BrandState = {
      profile,
      location: profile.location,
      region: profile.locationRegion,
      city: profile.locationCity,
      providerCode: null,
      markets: [],
      aliases: [...profile.aliases],
      marketSeq: 0,
      aiPages: {
        entitled: profile.aiPages.entitled,
        config: setup
          ? {
              enabled: setup.enabled,
              domain: profile.domain,
              platform: setup.platform,
              features: [...setup.features],
              crawlers: [...setup.crawlers],
            }
          : null,
        usage: setup
          ? {
              requests_limit: setup.requestsLimit,
              requests_this_month: Math.round((setup.requestsLimit * setup.percentageUsed) / 100),
              percentage_used: setup.percentageUsed,
              reset_date: new Date(startOfNextMonth(clock.now())).toISOString(),
            }
          : null,
        growth: {
          perDay: setup?.dailyGrowth ?? 0,
          percentage: setup?.percentageUsed ?? 0,
          atMs: clock.now(),
        },
      },
      ideas: {
        generation: 0,
        status: 'completed',
        generatedAt: ideasAt,
        startedAt: null,
        ideas: generateIdeas(profile, 0, ideasAt),
      },
      get citations() {
        return bookOf(profile);
      },
      traffic: null,
      weekendDip: null,
      submissions: [],
      blockedCrawlers: [],
    };
    const seededAt = (offset: number) => dayTimestamp(startDay - 400 + offset * 37, 9 * 3_600_000);
    if (profile.location) brand.markets.push(newMarket(brand, profile.location, true, null, seededAt(0)));
    profile.extraMarkets.forEach((loc, i) => {
      brand.markets.push(newMarket(brand, loc, false, null, seededAt(i + 1)));
    });
    // A past submission, so the status endpoint has something to report from the start.
    const pastAt = (startDay - 3) * DAY_MS + 14 * 3_600_000;
    brand.submissions.push({
      id: uuidFrom(`submission:${profile.id}:seed`),
      urls: profile.sitePaths.slice(0, 12).map((p) => `${profile.website}${p}`),
      submittedAt: pastAt,
      completesAt: pastAt + 90_000,
      error: null,
    });
    brands.set(profile.id, brand);
  }

  const today = () => epochDay(clock.now());
  const snapshotIndex = () => SEED_SNAPSHOTS - 1 + advances.length;
  /**
   * The seed's latest snapshot is the start day's and each run adds the next day. The clock
   * moving past the latest run shifts every date with it (the latest snapshot is today, as
   * when the service publishes daily); a run published before the clock reaches its day
   * keeps that day, so the days already shown keep their figures.
   */
  const dayOfSnapshot = (index: number) => {
    const latestPlanned = startDay + advances.length;
    return startDay - (SEED_SNAPSHOTS - 1) + index + Math.max(0, today() - latestPlanned);
  };

  const brand = (brandId: string): BrandState => {
    const found = brands.get(brandId.toLowerCase());
    if (!found) throw new Error(`unknown brand: ${brandId}`);
    return found;
  };

  const settleAiPagesUsage = (b: BrandState): AiPagesState => {
    const pages = b.aiPages;
    const { usage, growth } = pages;
    if (!usage || growth.perDay <= 0) return pages;
    const now = clock.now();
    let resetMs = Date.parse(usage.reset_date);
    if (Number.isFinite(resetMs) && now >= resetMs) {
      // A new billing period: counted from 0 at its start, which ends a month later.
      while (now >= resetMs) {
        growth.atMs = resetMs;
        resetMs = startOfNextMonth(resetMs);
      }
      growth.percentage = 0;
      usage.reset_date = new Date(resetMs).toISOString();
    }
    const pct = Math.min(100, growth.percentage + (growth.perDay * Math.max(0, now - growth.atMs)) / DAY_MS);
    usage.percentage_used = Math.round(pct * 10) / 10;
    usage.requests_this_month = Math.round((usage.requests_limit * pct) / 100);
    return pages;
  };

  const settleIdeas = (b: BrandState): IdeasState => {
    const s = b.ideas;
    if (s.status === 'generating' && s.startedAt !== null && clock.now() >= s.startedAt + generationMs) {
      const doneAt = s.startedAt + generationMs;
      b.ideas = {
        generation: s.generation + 1,
        status: 'completed',
        generatedAt: doneAt,
        startedAt: null,
        ideas: generateIdeas(b.profile, s.generation + 1, doneAt),
      };
    }
    return b.ideas;
  };

  return {
    brands,
    clock,
    generationMs,
    today,
    snapshotIndex,
    dayOfSnapshot,
    settleIdeas,
    settleAiPagesUsage,
    startGeneration: (b) => {
      if (settleIdeas(b).status === 'generating') return false;
      b.ideas = { ...b.ideas, status: 'generating', startedAt: clock.now() };
      return true;
    },
    newMarket: (b, location, isPrimary, name) => newMarket(b, location, isPrimary, name),
    trafficModel: (b) =>
      createTrafficModel({
        profile: b.profile,
        policy: accessPolicyOf(b.profile.id),
        override: b.traffic,
        weekendDip: b.weekendDip,
        trackingStartDay,
        now: clock.now(),
      }),
    advanceSnapshot: (changes) => {
      if (!changes) {
        for (const b of brands.values()) if (books.has(b.profile.id)) appendScripted(b.citations, b.profile);
        advances.push(null);
        return;
      }
      const target = brand(changes.brandId ?? SEED_BRANDS.acme.id);
      // appendExplicit throws before appending, so a bad change leaves every brand as it was.
      appendExplicit(target.citations, target.profile, changes);
      for (const b of brands.values()) {
        if (b !== target && books.has(b.profile.id)) appendUnchanged(b.citations);
      }
      advances.push({ target: target.profile.id, changes });
    },
    setAiPagesUsage: (brandId, patch) => {
      const b = brand(brandId);
      const pages = settleAiPagesUsage(b);
      pages.config ??= {
        enabled: true,
        domain: b.profile.domain,
        platform: 'other',
        features: ['aisummaryblock'],
        crawlers: ['gptbot', 'claudebot', 'perplexitybot'],
      };
      if (patch.enabled !== undefined) pages.config.enabled = patch.enabled;
      pages.usage ??= {
        requests_limit: 10_000,
        requests_this_month: 0,
        percentage_used: 0,
        reset_date: new Date(startOfNextMonth(clock.now())).toISOString(),
      };
      const usage = pages.usage;
      if (patch.requestsLimit !== undefined)
        usage.requests_limit = Math.max(1, Math.round(patch.requestsLimit));
      if (patch.resetDate !== undefined) usage.reset_date = patch.resetDate;
      if (patch.percentageUsed !== undefined) {
        usage.percentage_used = Math.max(0, Math.min(100, patch.percentageUsed));
        if (patch.requestsThisMonth === undefined) {
          usage.requests_this_month = Math.round((usage.requests_limit * usage.percentage_used) / 100);
        }
      }
      if (patch.requestsThisMonth !== undefined) {
        usage.requests_this_month = Math.max(0, Math.round(patch.requestsThisMonth));
        if (patch.percentageUsed === undefined) {
          const pct = (usage.requests_this_month / usage.requests_limit) * 100;
          usage.percentage_used = Math.min(100, Math.round(pct * 10) / 10);
        }
      } else if (patch.requestsLimit !== undefined && patch.percentageUsed === undefined) {
        usage.percentage_used = Math.min(
          100,
          Math.round((usage.requests_this_month / usage.requests_limit) * 1000) / 10,
        );
      }
      // It grows on from the value set, at the brand's pace unless the patch gives one.
      pages.growth = {
        perDay: patch.dailyGrowth ?? pages.growth.perDay,
        percentage: usage.percentage_used,
        atMs: clock.now(),
      };
    },
    setCrawlerRhythm: (brandId, patch) => {
      const dip = patch.weekendDip;
      if (dip !== null && !(dip >= 0 && dip <= 0.9))
        throw new Error('weekendDip must be from 0 to 0.9, or null');
      brand(brandId).weekendDip = dip;
    },
    blockCrawler: (brandId, name, blocked, days = 7) => {
      const b = brand(brandId);
      const c = findCrawler(name);
      if (!c) throw new Error(`unknown crawler: ${name}`);
      b.blockedCrawlers = b.blockedCrawlers.filter((id) => id !== c.id);
      if (blocked) b.blockedCrawlers.push(c.id);
      b.traffic = blocked ? { factor: 0.04, fromDay: today() - days, crawlers: [c.id] } : null;
    },
    accessPolicy: (b) => {
      const seed = accessPolicyOf(b.profile.id);
      return { ...seed, robotsDisallow: [...new Set([...seed.robotsDisallow, ...b.blockedCrawlers])] };
    },
    setCrawlerTraffic: (brandId, patch) => {
      const b = brand(brandId);
      if (!(patch.factor >= 0) || !Number.isFinite(patch.factor))
        throw new Error('factor must be a number >= 0');
      const days = patch.days ?? 7;
      if (!Number.isInteger(days) || days < 1) throw new Error('days must be a positive integer');
      const crawlers = patch.crawlers?.map((name) => {
        const c = findCrawler(name);
        if (!c) throw new Error(`unknown crawler: ${name}`);
        return c.id;
      });
      // The last `days` whole days and today: the crawler alert compares whole days up to
      // yesterday, so a staged drop of 60 % reads as "down 60 %" there, not as a part of it.
      b.traffic =
        patch.factor === 1 && !patch.crawlers
          ? null
          : { factor: patch.factor, fromDay: today() - days, crawlers: crawlers ?? null };
    },
    brand,
  };
}
