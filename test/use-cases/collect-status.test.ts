/**
 * collectStatus on a real SQLite file and the app's real API client and limiter (status
 * never calls the API): what it reports with and without a scheduler in the process, the
 * jobs' runs and failure streaks, health flags, muted and paused subscriptions, and a part
 * that cannot be read reported as missing while the rest still is.
 */

import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AppDeps, createAppDeps } from '../../src/app-deps.js';
import { createSqliteStore } from '../../src/store/create-sqlite-store.js';
import { collectStatus } from '../../src/use-cases/collect-status.js';
import type { SchedulerSnapshot } from '../../src/use-cases/scheduler-snapshot.js';
import { addDays } from '../../src/utc-days.js';
import { testConfig } from '../helpers/test-config.js';
import { manualClock, type TempDb, tempDb } from '../store/temp-db.js';

const H = 3_600_000;
const NOW = Date.parse('2025-03-10T12:00:00Z');
let store: TempDb;
let clock: ReturnType<typeof manualClock>;
let deps: AppDeps;

beforeEach(() => {
  store = tempDb();
  clock = manualClock(NOW);
  const config = testConfig(store.path);
  deps = createAppDeps(config, { db: store.db, clock, logger: pino({ level: 'silent' }) });
});
afterEach(async () => {
  await deps.close();
  store.close();
});

async function subscribe(channelId: string, brandId: string) {
  await createSqliteStore(store.db).subscriptions.upsert({
    channelId,
    brandId,
    brandName: brandId.toUpperCase(),
    createdBy: 'U1',
    createdAtMs: NOW - 48 * H,
  });
}

describe('collectStatus', () => {
  it("says which rule judges each subscription's crawler visits, from the stored history", async () => {
    await subscribe('C1', 'acme');
    await subscribe('C2', 'globex');
    const sqlite = createSqliteStore(store.db);
    // 5 weeks of visits for acme, up to yesterday; 9 days for globex.
    const days = (n: number) =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [addDays('2025-03-09', -i), 100]));
    await sqlite.crawlerHistory.record('acme', days(35), '2025-03-09', NOW);
    await sqlite.crawlerHistory.record('globex', days(9), '2025-03-09', NOW);
    const report = await collectStatus(deps);
    expect(report.scheduler?.subscriptions.crawlerRules).toEqual([
      { brandName: 'ACME', channelId: 'C1', why: 'range: 5 weeks of history' },
      {
        brandName: 'GLOBEX',
        channelId: 'C2',
        why: 'threshold −40 %: only 9 days of history so far; the usual range needs 21 days',
      },
    ]);
  });

  it('without a scheduler here: the plan it would make now, each job never run, no problems', async () => {
    await subscribe('C1', 'acme');
    await subscribe('C2', 'acme');
    await subscribe('C2', 'globex');
    const report = await collectStatus(deps);
    expect(report.nowMs).toBe(NOW);
    expect(report.limiter.dailyLimit).toBe(10_000);
    expect(report.service).toMatchObject({ reachable: null });
    expect(report.database).toEqual({
      backend: 'sqlite',
      reachable: true,
      since: null,
      reason: null,
      downForSeconds: 0,
    });
    const s = report.scheduler!;
    expect(s.running).toBe(false);
    // Two distinct brands, each polled once however many channels watch it.
    expect(s.plan).toMatchObject({ brands: 2, dailyLimit: 10_000, budgetPerDay: 8_000, stretched: false });
    expect(s.quotaWaitUntilMs).toBeNull();
    expect(s.jobs.map((j) => [j.name, j.lastRun, j.nextRunAtMs])).toEqual([
      ['citations', null, null],
      ['crawler', null, null],
      ['ai-pages', null, null],
      ['digest', null, null],
      ['weekly', null, null],
    ]);
    expect(s.healthFlags).toEqual([]);
    expect(s.subscriptions).toMatchObject({ total: 3, channels: 2, muted: [], paused: [] });
  });

  it('reports failing runs, raised flags, and what is muted now or paused', async () => {
    await subscribe('C1', 'acme');
    await subscribe('C2', 'globex');
    await subscribe('C3', 'initech');
    const subs = createSqliteStore(store.db).subscriptions;
    await subs.setMutedUntil('C1', 'acme', NOW + H);
    await subs.setMutedUntil('C3', 'initech', NOW - H); // ran out: not muted any more
    await subs.pauseChannel('C2', 'channel_not_found', NOW - H);
    const runs = createSqliteStore(store.db, { clock: clock }).jobRuns;
    for (let i = 0; i < 3; i++) {
      clock.advance(60_000);
      await runs.finish(await runs.start('crawler', 'test'), {
        ok: false,
        error: `crawler overview failed ${i}`,
      });
    }
    await createSqliteStore(store.db).healthFlags.raise('job_failing:crawler', 'three runs failed', NOW);

    const s = (await collectStatus(deps)).scheduler!;
    const crawler = s.jobs.find((j) => j.name === 'crawler')!;
    expect(crawler.failureStreak).toBe(3);
    expect(crawler.lastRun).toMatchObject({ ok: false, error: 'crawler overview failed 2' });
    expect(s.jobs.find((j) => j.name === 'citations')!.failureStreak).toBe(0);
    expect(s.healthFlags.map((f) => [f.key, f.detail])).toEqual([
      ['job_failing:crawler', 'three runs failed'],
    ]);
    expect(s.subscriptions.muted.map((m) => m.channelId)).toEqual(['C1']);
    expect(s.subscriptions.paused.map((p) => [p.channelId, p.pausedReason])).toEqual([
      ['C2', 'channel_not_found'],
    ]);
    // The paused subscription is not polled.
    expect(s.plan.brands).toBe(2);
  });

  it('with the scheduler here: its published plan, next runs and quota wait', async () => {
    await subscribe('C1', 'acme');
    const job = (nextRunAtMs: number | null) => ({
      intervalHours: 24,
      lastRunAtMs: null,
      lastOk: null,
      lastStatus: null,
      lastDetail: null,
      nextRunAtMs,
      failureStreak: 0,
      running: false,
    });
    const snapshot: SchedulerSnapshot = {
      running: true,
      atMs: NOW,
      plan: {
        brands: 1_900,
        dailyLimit: 10_000,
        budgetPerDay: 8_000,
        callsPerDay: 7_900,
        callsPerBrandPerDay: 4.2,
        maxBrands: 1_700,
        intervalsHours: { citations: 24, crawler: 24, 'ai-pages': 12 },
        stretched: true,
        warning: 'too many brands',
      },
      quotaWaitUntilMs: NOW + 2 * H,
      jobs: {
        citations: job(NOW + H),
        crawler: job(NOW + 2 * H),
        'ai-pages': job(null),
        digest: job(NOW + 3 * H),
        weekly: job(NOW + 4 * H),
      },
    };
    deps.metrics.setSchedulerState(snapshot as unknown as Record<string, unknown>);

    const s = (await collectStatus(deps)).scheduler!;
    expect(s.running).toBe(true);
    expect(s.plan).toEqual(snapshot.plan);
    expect(s.quotaWaitUntilMs).toBe(NOW + 2 * H);
    expect(s.jobs.map((j) => j.nextRunAtMs)).toEqual([NOW + H, NOW + 2 * H, null, NOW + 3 * H, NOW + 4 * H]);
  });

  it('reports the scheduler part as missing when its tables cannot be read, and the rest still', async () => {
    store.db.exec('DROP TABLE job_runs');
    const report = await collectStatus(deps);
    expect(report.scheduler).toBeNull();
    expect(report.limiter.dailyLimit).toBe(10_000);
    expect(report.service).not.toBeNull();
  });
});
