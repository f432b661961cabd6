/**
 * What the job unit tests share: a real SQLite file, a settable clock, and an API that
 * answers from functions the test sets and records every call (method, params, lane), so
 * tests assert on what the jobs asked for. The API is a stand-in for the HTTP client only;
 * jobs, detectors, repositories and the outbox are the real ones.
 */

import { pino } from 'pino';
import { ApiError, ApiErrorCode } from '../../src/api/errors.js';
import type { LimiterState } from '../../src/api/limiter/types.js';
import type { AiPagesRecord, CitationFeedResponse, CrawlerOverview } from '../../src/api/schemas/index.js';
import type { CallOptions, VisibilityApi } from '../../src/api/visibility-api.js';
import type { Config } from '../../src/config.js';
import { appBotHealth } from '../../src/jobs/bot-health.js';
import { createJobContext, type JobContext } from '../../src/jobs/job-context.js';
import type { RunJobOnceOptions } from '../../src/jobs/run-job-once.js';
import { createSqliteStore } from '../../src/store/create-sqlite-store.js';
import type { Subscription } from '../../src/store/subscriptions-repo.js';
import { type ManualClock, manualClock } from '../helpers/manual-clock.js';
import { type TempDb, tempDb } from '../store/temp-db.js';

export interface ApiCall {
  method: string;
  params: Record<string, unknown>;
  lane: string | undefined;
}

export type Answer<T> = (params: Record<string, unknown>) => T | Promise<T>;

export interface FakeApi {
  api: VisibilityApi;
  calls: ApiCall[];
  feed: Answer<CitationFeedResponse>;
  overview: Answer<CrawlerOverview>;
  aiPages: Answer<AiPagesRecord>;
  dailyLimit: number | null;
}

export function emptyFeed(brandId: string): CitationFeedResponse {
  return {
    brand: { id: brandId, name: brandId },
    events: [],
    current_snapshot_date: '2025-03-10',
    previous_snapshot_date: '2025-03-09',
    total_current: 10,
    total_previous: 10,
  };
}

export function aiPagesRecord(brandId: string, percentageUsed: number): AiPagesRecord {
  return {
    brand: { id: brandId, name: brandId },
    config: { enabled: true, domain: 'example.com', platform: 'other', features: [], crawlers: [] },
    usage: {
      requests_this_month: percentageUsed * 10,
      requests_limit: 1000,
      percentage_used: percentageUsed,
      reset_date: '2031-01-01T00:00:00Z',
    },
  };
}

export function fakeApi(): FakeApi {
  const fake: FakeApi = {
    api: undefined as unknown as VisibilityApi,
    calls: [],
    feed: (p) => emptyFeed(String(p['brandId'])),
    overview: () => ({ chart: { series: [] } }) as unknown as CrawlerOverview,
    aiPages: (p) => aiPagesRecord(String(p['brandId']), 10),
    dailyLimit: 10_000,
  };
  const record =
    <T>(method: string, answer: () => Answer<T>) =>
    async (params: Record<string, unknown>, opts?: CallOptions): Promise<T> => {
      fake.calls.push({ method, params, lane: opts?.lane });
      return answer()(params);
    };
  fake.api = {
    getCitationFeed: record('getCitationFeed', () => fake.feed),
    getCrawlerOverview: record('getCrawlerOverview', () => fake.overview),
    getAiPages: record('getAiPages', () => fake.aiPages),
    getContentIdeas: record('getContentIdeas', () => () => ({ ideas: [] })),
    // The why-lines' lookups (src/use-cases/fetch-why-data.ts): the brand's site, and a
    // service that has nothing to say about a lost page, so alerts carry no why-line here.
    getBrands: record('getBrands', () => (p) => ({
      brands: [{ id: String(p['brandId']), name: String(p['brandId']), website: 'https://brand.example' }],
    })),
    getCitationSources: record('getCitationSources', () => () => {
      throw new ApiError(ApiErrorCode.NotFound, 'No citations for this domain.', { status: 404 });
    }),
    limiterState: () => ({ dailyLimit: fake.dailyLimit }) as LimiterState,
  } as unknown as VisibilityApi;
  return fake;
}

export interface LogLine {
  level: number;
  msg: string;
  [k: string]: unknown;
}

/** A pino logger at debug whose lines are parsed into `lines`. */
export function captureLogger(lines: LogLine[]) {
  return pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
}

/** One run of a job as the tests run it: not forced, no lease wait, no gap between brands. */
export const runOnceOptions: RunJobOnceOptions = {
  owner: 'me',
  force: false,
  leaseWaitMs: 0,
  leaseTtlMs: 60_000,
  brandGapMs: 0,
};

export interface JobFixture {
  store: TempDb;
  clock: ManualClock;
  fake: FakeApi;
  ctx: JobContext;
  config: Config;
  logs: LogLine[];
  subscribe(channelId: string, brandId: string, extra?: Partial<Subscription>): Promise<Subscription>;
  close(): void;
}

export const OPS = 'COPS';

export function jobFixture(start = Date.parse('2025-03-10T10:30:00Z')): JobFixture {
  const store = tempDb();
  const clock = manualClock(start);
  const fake = fakeApi();
  const logs: LogLine[] = [];
  const logger = captureLogger(logs);
  const config = { defaultTimezone: 'UTC', opsChannel: OPS } as Config;
  const deps = {
    api: fake.api,
    store: createSqliteStore(store.db, { clock, closesDatabase: false }),
    clock,
    config,
    logger,
  };
  const outbox = createSqliteStore(store.db).outbox({ owner: 'test' });
  const ctx = createJobContext(deps, { outbox, health: appBotHealth(deps, outbox) });
  const subs = createSqliteStore(store.db).subscriptions;
  return {
    store,
    clock,
    fake,
    ctx,
    config,
    logs,
    async subscribe(channelId, brandId, extra = {}) {
      await subs.upsert({
        channelId,
        brandId,
        brandName: `Brand ${brandId}`,
        createdBy: 'U1',
        createdAtMs: clock.now(),
      });
      if (extra.settings) await subs.setSettings(channelId, brandId, extra.settings);
      if (extra.mutedUntilMs !== undefined) await subs.setMutedUntil(channelId, brandId, extra.mutedUntilMs);
      return (await subs.get(channelId, brandId))!;
    },
    close: () => store.close(),
  };
}
