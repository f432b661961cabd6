/**
 * A real Scheduler with its ticks left to pg-boss (createReplicatedScheduler): node-cron
 * fires nothing, the catch-up at start still runs, and a pg-boss slot runs the poll jobs
 * that became due. The jobs' store is SQLite here (what is due is the scheduler's
 * business); pg-boss keeps its queues in the test's Postgres database, on its TestClock.
 */

import { TestClock } from 'pg-boss';
import { pino } from 'pino';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type AppDeps, createAppDeps } from '../../src/app-deps.js';
import { loadConfig } from '../../src/config.js';
import { PgBossTicksError } from '../../src/jobs/pg-boss-ticks.js';
import { createReplicatedScheduler, type ReplicatedScheduler } from '../../src/jobs/replicated-scheduler.js';
import { createSqliteStore } from '../../src/store/create-sqlite-store.js';
import { DEFAULT_POLL_INTERVALS as D } from '../../src/use-cases/plan-polling.js';
import { asSchedulerSnapshot } from '../../src/use-cases/scheduler-snapshot.js';
import { type ManualClock, manualClock } from '../helpers/manual-clock.js';
import { usePostgresDatabase } from '../helpers/postgres-database.js';
import { schedulerCronTasks } from '../helpers/scheduler-cron-tasks.js';
import { type TempDb, tempDb } from '../store/temp-db.js';
import { type FakeApi, fakeApi } from './job-fixture.js';

const H = 3_600_000;
const database = usePostgresDatabase();
let store: TempDb;
let clock: ManualClock;
let fake: FakeApi;
let deps: AppDeps;
let replicated: ReplicatedScheduler | undefined;

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
  await replicated?.stop();
  replicated = undefined;
  await deps.close();
  store.close();
});

async function subscribe() {
  await createSqliteStore(store.db).subscriptions.upsert({
    channelId: 'C1',
    brandId: 'b1',
    brandName: 'B1',
    createdBy: 'U1',
    createdAtMs: clock.now(),
  });
}

it('the scheduler runs on pg-boss slots, not node-cron, and stops with it', async () => {
  await subscribe();
  // 10:01: a poll slot and no digest slot (*/5).
  const bossClock = new TestClock(Date.parse('2026-03-02T10:01:30Z'));
  replicated = createReplicatedScheduler(
    deps,
    database.url,
    // Every second, were node-cron in charge.
    { pollCron: '* * * * * *', relayIntervalMs: 50, brandGapMs: 0 },
    {
      clock: bossClock,
      pollingIntervalSeconds: 1,
      cronMonitorIntervalSeconds: 1,
      cronWorkerIntervalSeconds: 1,
    },
  );
  // pg-boss's workers wait for the test's clock: nothing but the catch-up runs yet.
  await replicated.start();
  await expect.poll(() => fake.calls.length, { timeout: 5000 }).toBe(3);

  // node-cron holds no task of the scheduler's (on this pattern one would fire every second).
  expect(schedulerCronTasks()).toEqual([]);
  clock.advance(D.crawlerHours * H);
  expect(fake.calls).toHaveLength(3);

  for (let s = 0; s < 5; s++) await bossClock.tick(1000);
  await expect.poll(() => fake.calls.length, { timeout: 10_000 }).toBe(6);
  expect(fake.calls.slice(3).map((c) => c.method)).toEqual([
    'getCitationFeed',
    'getCrawlerOverview',
    'getAiPages',
  ]);

  await replicated.stop();
  replicated = undefined;
  expect(asSchedulerSnapshot(deps.metrics.schedulerState())?.running).toBe(false);
});

it('an engine that cannot start leaves the scheduler unstarted', async () => {
  await subscribe();
  const url = new URL(database.url);
  url.port = '1';
  replicated = createReplicatedScheduler(deps, url.toString(), { relayIntervalMs: 50, brandGapMs: 0 });
  await expect(replicated.start()).rejects.toBeInstanceOf(PgBossTicksError);
  expect((await replicated.scheduler.snapshot()).running).toBe(false);
  // No catch-up began: nothing asked the API, so no job lease is left held.
  expect(fake.calls).toHaveLength(0);
});
