/**
 * A real Scheduler with its ticks left to pg-boss (`ticks: 'external'`): node-cron fires
 * nothing, the catch-up at start still runs, and a pg-boss slot runs the poll jobs that
 * became due. The jobs' store is SQLite here (what is due is the scheduler's business);
 * pg-boss keeps its queues in the test's Postgres database, on its TestClock.
 */

import { TestClock } from 'pg-boss';
import { pino } from 'pino';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { DEFAULT_POLL_INTERVALS as D } from '../../src/alerting/plan-polling.js';
import { type AppDeps, createAppDeps } from '../../src/app-deps.js';
import { loadConfig } from '../../src/config.js';
import { createPgBossTicks, type PgBossTicks } from '../../src/jobs/pg-boss-ticks.js';
import { createScheduler, type Scheduler, tickPatterns } from '../../src/jobs/scheduler.js';
import { createSubscriptionsRepo } from '../../src/store/subscriptions-repo.js';
import { type ManualClock, manualClock } from '../helpers/manual-clock.js';
import { usePostgresDatabase } from '../helpers/postgres-database.js';
import { type TempDb, tempDb } from '../store/temp-db.js';
import { type FakeApi, fakeApi } from './job-fixture.js';

const H = 3_600_000;
const database = usePostgresDatabase();
let store: TempDb;
let clock: ManualClock;
let fake: FakeApi;
let deps: AppDeps;
let scheduler: Scheduler | undefined;
let ticks: PgBossTicks | undefined;

beforeEach(() => {
  store = tempDb();
  clock = manualClock(Date.parse('2025-03-10T00:30:00Z'));
  fake = fakeApi();
  const config = loadConfig('serve', {
    VISIBILITY_API_URL: 'http://127.0.0.1:9',
    VISIBILITY_API_KEY: 'sk_live_test0000000000000000000000000000',
    SLACK_BOT_TOKEN: 'xoxb-test',
    SLACK_SIGNING_SECRET: 'test-signing-secret',
    DATABASE_PATH: store.path,
  });
  deps = createAppDeps(config, { db: store.db, api: fake.api, clock, logger: pino({ level: 'silent' }) });
});
afterEach(async () => {
  // The engine first: a stopped scheduler's ticks return at once.
  await ticks?.stop();
  await scheduler?.stop();
  ticks = undefined;
  scheduler = undefined;
  await deps.close();
  store.close();
});

it('a scheduler with external ticks runs on pg-boss slots, not node-cron', async () => {
  await createSubscriptionsRepo(store.db).upsert({
    channelId: 'C1',
    brandId: 'b1',
    brandName: 'B1',
    createdBy: 'U1',
    createdAtMs: clock.now(),
  });
  // Every second, were node-cron in charge.
  scheduler = createScheduler(deps, {
    ticks: 'external',
    pollCron: '* * * * * *',
    relayIntervalMs: 50,
    brandGapMs: 0,
  });
  scheduler.start();
  // The catch-up at start runs whoever fires the ticks.
  await expect.poll(() => fake.calls.length, { timeout: 5000 }).toBe(3);

  clock.advance(D.crawlerHours * H);
  // Two of node-cron's seconds: it would have ticked and run what became due.
  await new Promise((r) => setTimeout(r, 2000));
  expect(fake.calls).toHaveLength(3);

  // 10:01: a poll slot and no digest slot (*/5).
  const bossClock = new TestClock(Date.parse('2026-03-02T10:01:30Z'));
  ticks = createPgBossTicks(database.url, scheduler, {
    patterns: tickPatterns(),
    logger: pino({ level: 'silent' }),
    clock: bossClock,
    pollingIntervalSeconds: 1,
    cronMonitorIntervalSeconds: 1,
    cronWorkerIntervalSeconds: 1,
  });
  await ticks.start();
  for (let s = 0; s < 5; s++) await bossClock.tick(1000);
  await expect.poll(() => fake.calls.length, { timeout: 10_000 }).toBe(6);
  expect(fake.calls.slice(3).map((c) => c.method)).toEqual([
    'getCitationFeed',
    'getCrawlerOverview',
    'getAiPages',
  ]);
});
