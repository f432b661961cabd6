/**
 * The scheduler with its clock in the test's hands: what each tick runs (due jobs only,
 * at the planner's intervals), waiting for the quota reset, the plan's warning, the state
 * it publishes, and a real node-cron tick.
 */

import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { QuotaExhaustedError } from '../../src/api/errors.js';
import { type AppDeps, createAppDeps } from '../../src/app-deps.js';
import { slotStart } from '../../src/jobs/job-schedule.js';
import { createScheduler, DIGEST_LEAD_MS, type Scheduler } from '../../src/jobs/scheduler.js';
import { createSqliteStore } from '../../src/store/create-sqlite-store.js';
import { JOB_OFFSETS_MS } from '../../src/use-cases/current-polling-plan.js';
import { AI_PAGES_RUN_HOURS, DEFAULT_POLL_INTERVALS as D } from '../../src/use-cases/plan-polling.js';
import { asSchedulerSnapshot } from '../../src/use-cases/scheduler-snapshot.js';
import { type ManualClock, manualClock } from '../helpers/manual-clock.js';
import { schedulerCronTasks } from '../helpers/scheduler-cron-tasks.js';
import { testConfig } from '../helpers/test-config.js';
import { type TempDb, tempDb } from '../store/temp-db.js';
import { emptyFeed, type FakeApi, fakeApi } from './job-fixture.js';

const H = 3_600_000;
let store: TempDb;
let clock: ManualClock;
let fake: FakeApi;
let deps: AppDeps;
let logs: Array<{ level: number; msg: string }>;
let scheduler: Scheduler | undefined;

beforeEach(() => {
  store = tempDb();
  // Just after midnight UTC: every job's first slot of the day has begun.
  clock = manualClock(Date.parse('2025-03-10T00:30:00Z'));
  fake = fakeApi();
  logs = [];
  const config = testConfig(store.path);
  deps = createAppDeps(config, {
    db: store.db,
    api: fake.api,
    clock,
    logger: pino({ level: 'debug' }, { write: (l: string) => void logs.push(JSON.parse(l)) }),
  });
});
afterEach(async () => {
  await scheduler?.stop();
  scheduler = undefined;
  await deps.close();
  store.close();
});

async function subscribe(n: number) {
  const subs = createSqliteStore(store.db).subscriptions;
  for (let i = 0; i < n; i++)
    await subs.upsert({
      channelId: 'C1',
      brandId: `b${i}`,
      brandName: `B${i}`,
      createdBy: 'U1',
      createdAtMs: clock.now(),
    });
}
const methods = () => fake.calls.map((c) => c.method);

describe('polling ticks', () => {
  it('runs each job when its slot is due, and not again within the slot', async () => {
    await subscribe(1);
    scheduler = createScheduler(deps, { brandGapMs: 0 });
    await scheduler.pollTick();
    expect(methods()).toEqual(['getCitationFeed', 'getCrawlerOverview', 'getAiPages']);
    await scheduler.pollTick();
    expect(fake.calls).toHaveLength(3);

    // Daily data is polled daily. The AI Pages job runs every few hours, but a brand far
    // from its next threshold (10 %, not growing) is asked only once a day.
    clock.advance(AI_PAGES_RUN_HOURS * H);
    await scheduler.pollTick();
    expect(fake.calls).toHaveLength(3);
    expect((await scheduler.snapshot()).jobs['ai-pages'].lastRunAtMs).toBe(clock.now());
    clock.advance(24 * H);
    await scheduler.pollTick();
    expect(methods().slice(3)).toEqual(['getCitationFeed', 'getCrawlerOverview', 'getAiPages']);

    const now = clock.now();
    const snap = asSchedulerSnapshot(deps.metrics.schedulerState())!;
    expect(snap.plan).toMatchObject({
      brands: 1,
      intervalsHours: { citations: D.citationsHours, crawler: D.crawlerHours, 'ai-pages': D.aiPagesHours },
      maxBrands: 1534,
    });
    expect(snap.plan.callsPerBrandPerDay).toBeCloseTo(5.2);
    const next = (hours: number, offset: number) => slotStart(now, hours, offset) + hours * H;
    expect(snap.jobs.citations.nextRunAtMs).toBe(next(D.citationsHours, JOB_OFFSETS_MS.citations));
    expect(snap.jobs.crawler.nextRunAtMs).toBe(next(D.crawlerHours, JOB_OFFSETS_MS.crawler));
    expect(snap.jobs.crawler).toMatchObject({
      lastOk: true,
      intervalHours: D.crawlerHours,
      failureStreak: 0,
    });
  });

  it('reports the next digest time and when it will be prepared, the lead before it', async () => {
    await subscribe(1);
    scheduler = createScheduler(deps, { brandGapMs: 0 });
    // 00:30 UTC; the digest is at 09:00 UTC (the default), prepared from 08:15.
    const nine = Date.parse('2025-03-10T09:00:00Z');
    expect((await scheduler.snapshot()).jobs.digest).toMatchObject({
      nextRunAtMs: nine,
      prepareAtMs: nine - DIGEST_LEAD_MS,
    });
    clock.set(nine - 10 * 60_000);
    expect((await scheduler.snapshot()).jobs.digest).toMatchObject({
      nextRunAtMs: nine,
      prepareAtMs: clock.now(),
    });
    expect((await scheduler.snapshot()).jobs.citations.prepareAtMs).toBeNull();
  });

  it('runs no job without subscriptions (only the housekeeping, which calls nothing)', async () => {
    scheduler = createScheduler(deps);
    await scheduler.pollTick();
    await scheduler.digestTick();
    expect(fake.calls).toEqual([]);
    expect(store.db.prepare('SELECT job FROM job_runs').all()).toEqual([{ job: 'housekeeping' }]);
  });

  it('runs the housekeeping once a day, at its hour, whoever ran it last', async () => {
    const runs = () =>
      store.db
        .prepare("SELECT started_at_ms AS at FROM job_runs WHERE job = 'housekeeping' ORDER BY id")
        .all();
    // A sent alert from 100 days ago, past the 90 days messages are kept by default.
    const old = clock.now() - 100 * 24 * H;
    store.db
      .prepare(
        `INSERT INTO outbox (dedupe_key, channel_id, brand_id, kind, payload, status, next_attempt_at_ms,
           created_at_ms, sent_at_ms) VALUES ('k1', 'C1', 'b1', 'alert', '{}', 'sent', ?, ?, ?)`,
      )
      .run(old, old, old);
    scheduler = createScheduler(deps, { brandGapMs: 0 });
    // 00:30: the day's slot (from 03:30 yesterday) had no run yet, so the first tick runs it.
    await scheduler.pollTick();
    expect(runs()).toEqual([{ at: clock.now() }]);
    expect(store.db.prepare('SELECT COUNT(*) AS n FROM outbox').get()).toEqual({ n: 0 });
    const first = clock.now();
    clock.set(Date.parse('2025-03-10T03:29:00Z'));
    await scheduler.pollTick();
    expect(runs()).toEqual([{ at: first }]);
    clock.set(Date.parse('2025-03-10T03:30:00Z'));
    await scheduler.pollTick();
    await scheduler.pollTick();
    expect(runs()).toEqual([{ at: first }, { at: clock.now() }]);
    // The summary line, with its counts per table.
    expect(logs.filter((l) => l.msg === 'housekeeping ok')).toHaveLength(2);
  });

  it('warns, once, when even the longest intervals do not fit the quota', async () => {
    fake.dailyLimit = 1000;
    // 80 % of 1,000 a day: 70 brands fit at the defaults (daily polls).
    await subscribe(70);
    scheduler = createScheduler(deps, { brandGapMs: 0 });
    await scheduler.pollTick();
    let plan = (await scheduler.snapshot()).plan;
    expect(plan.callsPerDay).toBeLessThanOrEqual(800);
    expect(plan.warning).toBeNull();

    await subscribe(220);
    await scheduler.pollTick();
    await scheduler.pollTick();
    plan = (await scheduler.snapshot()).plan;
    expect(plan.intervalsHours).toEqual({ citations: 24, crawler: 24, 'ai-pages': 24 });
    expect(plan.warning).toContain('220 brands need');
    expect(logs.filter((l) => l.level === 40 && l.msg.includes('220 brands need'))).toHaveLength(1);
  });

  it('waits for the quota reset instead of failing every tick', async () => {
    await subscribe(2);
    const resetAt = Date.parse('2025-03-11T00:00:00Z');
    fake.feed = () => {
      throw new QuotaExhaustedError(resetAt);
    };
    scheduler = createScheduler(deps, { brandGapMs: 0 });
    await scheduler.pollTick();
    expect(methods()).toEqual(['getCitationFeed']);
    expect(await scheduler.snapshot()).toMatchObject({ quotaWaitUntilMs: resetAt });
    expect((await scheduler.snapshot()).jobs.crawler.nextRunAtMs).toBe(resetAt);

    clock.advance(2 * H);
    await scheduler.pollTick();
    await scheduler.digestTick();
    expect(fake.calls).toHaveLength(1);

    clock.set(resetAt + 5 * 60_000);
    fake.feed = (p) => ({ ...fakeApi().feed(p) }) as never;
    await scheduler.pollTick();
    expect(methods().slice(1)).toEqual([
      'getCitationFeed',
      'getCitationFeed',
      'getCrawlerOverview',
      'getCrawlerOverview',
      'getAiPages',
      'getAiPages',
    ]);
    expect((await scheduler.snapshot()).quotaWaitUntilMs).toBeNull();
  });
});

describe('start and stop', () => {
  it('ticks from node-cron, catches up at start, and stops cleanly', async () => {
    await subscribe(1);
    scheduler = createScheduler(deps, { pollCron: '* * * * * *', relayIntervalMs: 50, brandGapMs: 0 });
    scheduler.start();
    expect(schedulerCronTasks()).toEqual(['visibility-poll', 'visibility-digest']);
    await expect.poll(() => fake.calls.length, { timeout: 3000 }).toBe(3);
    // The next slot: node-cron's next (one-second) tick runs what became due.
    clock.advance(D.crawlerHours * H);
    await expect.poll(() => fake.calls.length, { timeout: 3000 }).toBe(6);
    expect(asSchedulerSnapshot(deps.metrics.schedulerState())?.running).toBe(true);
    await scheduler.stop();
    expect(asSchedulerSnapshot(deps.metrics.schedulerState())?.running).toBe(false);
    expect(schedulerCronTasks()).toEqual([]);
    scheduler = undefined;
  });
});

describe('a database outage', () => {
  it('stops a run quietly, and runs it again, slot or not, as soon as the database answers', async () => {
    await subscribe(3);
    // The file is taken by another connection while the job is between two brands.
    const holder = store.open();
    store.db.pragma('busy_timeout = 10');
    let locked = false;
    fake.feed = (p) => {
      if (p['brandId'] === 'b1' && !locked) {
        locked = true;
        holder.exec('BEGIN EXCLUSIVE');
      }
      return { ...emptyFeed(String(p['brandId'])) };
    };
    scheduler = createScheduler(deps, { brandGapMs: 0, catchUpOnStart: false, relayIntervalMs: 60_000 });
    scheduler.start();
    await scheduler.pollTick();
    expect(deps.database.snapshot()).toMatchObject({ reachable: false, reason: 'db_locked' });
    // The other polls were not started: they would be refused the same way.
    const during = methods().length;
    expect(new Set(methods())).toEqual(new Set(['getCitationFeed']));
    expect(logs.filter((l) => l.level >= 50)).toEqual([]);

    holder.exec('ROLLBACK');
    // Recovery is noticed by the health's own probe, and the scheduler ticks at once.
    await expect.poll(() => methods().length, { timeout: 10_000 }).toBe(during + 9);
    expect(methods().slice(during)).toEqual([
      'getCitationFeed',
      'getCitationFeed',
      'getCitationFeed',
      'getCrawlerOverview',
      'getCrawlerOverview',
      'getCrawlerOverview',
      'getAiPages',
      'getAiPages',
      'getAiPages',
    ]);
    expect(logs.filter((l) => l.level >= 50)).toEqual([]);
  });
});
