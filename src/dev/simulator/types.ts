/**
 * The simulator's public contract. Other parts of the project (client tests, job tests,
 * the demo, e2e tests) code against exactly these names.
 */

import type { Clock } from '../../clock.js';
import type { PlanName } from '../../plan-names.js';

export interface SimulatorLimits {
  /** Key token bucket refill per `windowMs`. */
  perMinute: number;
  /** Key token bucket capacity. */
  burst: number;
  /** Requests per UTC day; null = no daily cap. */
  perDay: number | null;
  /** Overrides every endpoint's per-window limit; null = the docs/api.md §8 table. */
  endpointPerMinute: number | null;
  /** Length of the per-endpoint window and of the bucket's "minute" (60000 by default). */
  windowMs: number;
}

export interface SimulatorOptions {
  /** 0 = any free port (default). */
  port?: number;
  /** default 127.0.0.1 */
  host?: string;
  /** The key's plan: sets the default limits. default 'scale' */
  plan?: PlanName;
  limits?: Partial<SimulatorLimits>;
  /** Drives "today", snapshot dates, rate limits and background work. default systemClock */
  clock?: Clock;
  /**
   * Brands in all: the five seed profiles, then deterministic generated ones up to this
   * count (realistic industries, markets, crawler volume, AI Pages usage). default 5
   */
  brands?: number;
  /** How long content idea generation and search submissions take. default 1500 */
  generationMs?: number;
  /** How a refresh during a running generation is answered: 200 body (default) or 409. */
  alreadyGeneratingAs?: 'ok' | 'conflict';
}

export interface RecordedRequest {
  /** clock.now() when the request arrived */
  at: number;
  method: string;
  /** path without the query string */
  path: string;
  query: Record<string, string>;
  /** parsed JSON body, the raw text when it was not JSON, undefined when empty */
  body: unknown;
  /** status sent; 0 when the connection was reset by a fault */
  status: number;
}

export interface SnapshotChanges {
  /** URLs that disappear from the brand's citations */
  lose?: string[];
  /** URLs that (re)appear; unknown URLs get a generated page */
  add?: string[];
  /** new sentiment (0–100) of URLs already cited */
  sentiment?: { url: string; to: number }[];
  competitorAppeared?: { url: string; competitor: string }[];
  /** an AI model (`search_model`, e.g. `perplexity-sonar`) stops citing the brand: every page it cites is lost */
  dropModel?: string;
  /** the model cites the brand again: the pages it cited before it dropped out come back */
  restoreModel?: string;
  /** brand the changes apply to; default Acme Analytics */
  brandId?: string;
}

export interface AiPagesUsagePatch {
  percentageUsed?: number;
  requestsThisMonth?: number;
  requestsLimit?: number;
  /** ISO 8601 */
  resetDate?: string;
  enabled?: boolean;
  /** Percentage points the usage grows per simulated day from now on; 0 holds it still. */
  dailyGrowth?: number;
}

export interface CrawlerTrafficPatch {
  /** multiplier on visits; 1 undoes an earlier setting */
  factor: number;
  /** the last N whole days, today and every later day; default 7 */
  days?: number;
  /** crawler names or ids to scale; default all */
  crawlers?: string[];
}

/** A brand's weekly rhythm of AI crawler visits, over all its tracked days. */
export interface CrawlerRhythmPatch {
  /**
   * How far weekends run below weekdays, 0–0.9 (0.45: a seasonal site whose Saturdays and
   * Sundays get 45 % fewer visits); null goes back to the brand's own mild rhythm.
   */
  weekendDip: number | null;
}

export type SimulatorFault =
  | { kind: 'status'; status: number; count?: number; path?: string; body?: unknown }
  | { kind: 'latency'; ms: number; count?: number; path?: string }
  | { kind: 'malformed-json'; count?: number; path?: string }
  | {
      kind: 'rate-limit';
      count?: number;
      /** null = no Retry-After header; default 1 */
      retryAfterSec?: number | null;
      message?: string;
      path?: string;
    }
  | { kind: 'no-rate-limit-headers' }
  | { kind: 'reset-connection'; count?: number; path?: string };

export interface SimulatorControl {
  /** Appends a daily snapshot (today by the clock). Without changes: a scripted change for every brand. */
  advanceSnapshot(changes?: SnapshotChanges): void;
  setAiPagesUsage(brandId: string, patch: AiPagesUsagePatch): void;
  setCrawlerTraffic(brandId: string, patch: CrawlerTrafficPatch): void;
  setCrawlerRhythm(brandId: string, patch: CrawlerRhythmPatch): void;
  /**
   * robots.txt starts blocking `crawler` (name or id): the Access tab lists the finding and
   * the crawler's visits fall to a few percent over the last `days` days (default 7);
   * `blocked: false` lifts both.
   */
  blockCrawler(brandId: string, crawler: string, blocked: boolean, days?: number): void;
  injectFault(fault: SimulatorFault): void;
  clearFaults(): void;
  /** Replaces the given limits and starts the rate counters afresh. */
  setLimits(limits: Partial<SimulatorLimits>): void;
  /** Back to the seed state: data, limits, faults, counters, recorded requests. */
  reset(): void;
  snapshotIndex(): number;
  /** The research day (`YYYY-MM-DD`) of the current snapshot: today, or after it once runs outpace the clock. */
  snapshotDate(): string;
  /** The current snapshot's cited URLs, sorted. */
  citationUrls(brandId: string): string[];
  /**
   * AI crawler visits to the brand's site over the epoch days `startDay`–`endDay`
   * (inclusive), all crawlers: the total the crawler overview reports for those days.
   */
  crawlerVisits(brandId: string, startDay: number, endDay: number): number;
}

export interface RunningSimulator {
  /** base URL, no trailing slash */
  url: string;
  apiKey: string;
  control: SimulatorControl;
  /** every API request (not control requests), in arrival order; 429s included */
  requests: RecordedRequest[];
  close(): Promise<void>;
}
