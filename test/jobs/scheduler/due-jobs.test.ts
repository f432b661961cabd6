/**
 * The scheduler's planning on its own: what is due at a time and when each job runs next,
 * read from a real SQLite store with the clock in the test's hands; nothing here ticks.
 */

import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_SETTINGS } from '../../../src/alerts/alert-settings.js';
import { type AppDeps, createAppDeps } from '../../../src/app-deps.js';
import { HOUSEKEEPING_JOB } from '../../../src/jobs/housekeeping-job.js';
import {
  digestIsDue,
  housekeepingIsDue,
  nextWeekly,
  pollJobIsDue,
} from '../../../src/jobs/scheduler/due-jobs.js';
import { replan } from '../../../src/jobs/scheduler/replan.js';
import { quotaWaiting, type SchedulerContext } from '../../../src/jobs/scheduler/scheduler-context.js';
import { snapshotScheduler } from '../../../src/jobs/scheduler/snapshot-scheduler.js';
import { createSchedulerContext, DIGEST_LEAD_MS } from '../../../src/jobs/scheduler.js';
import { type ManualClock, manualClock } from '../../helpers/manual-clock.js';
import { testConfig } from '../../helpers/test-config.js';
import { type TempDb, tempDb } from '../../store/temp-db.js';
import { fakeApi } from '../job-fixture.js';

const H = 3_600_000;
let store: TempDb;
let clock: ManualClock;
let deps: AppDeps;
let ctx: SchedulerContext;

beforeEach(() => {
  store = tempDb();
  // A Monday, just after midnight UTC.
  clock = manualClock(Date.parse('2025-03-10T00:30:00Z'));
  const config = testConfig(store.path);
  deps = createAppDeps(config, {
    db: store.db,
    api: fakeApi().api,
    clock,
    logger: pino({ level: 'silent' }),
  });
  ctx = createSchedulerContext(deps, {}, new AbortController().signal);
});
afterEach(async () => {
  await deps.close();
  store.close();
});

async function subscribe(o: { digest?: boolean; weekly?: boolean } = {}) {
  await deps.store.subscriptions.upsert({
    channelId: 'C1',
    brandId: 'b1',
    brandName: 'Acme',
    createdBy: 'U1',
    createdAtMs: clock.now(),
    digest: o.digest ?? false,
    // Digest at 09:00 UTC; the weekly summary on Mondays at the digest time.
    settings: { ...DEFAULT_ALERT_SETTINGS, timezone: 'UTC', weekly: o.weekly ?? false },
  });
}

async function ran(job: string) {
  const id = await deps.store.jobRuns.start(job, 'test');
  await deps.store.jobRuns.finish(id, { ok: true });
}

describe('pollJobIsDue', () => {
  it('is due once per slot, and again at once for a job an outage stopped', async () => {
    await subscribe();
    const plan = await replan(ctx);
    expect(await pollJobIsDue(ctx, plan, 'citations')).toBe(true);
    await ran('citations');
    expect(await pollJobIsDue(ctx, plan, 'citations')).toBe(false);
    ctx.state.interrupted.add('citations');
    expect(await pollJobIsDue(ctx, plan, 'citations')).toBe(true);
  });
});

describe('housekeepingIsDue', () => {
  it('is due once a day from 03:30 UTC, whoever ran it last', async () => {
    expect(await housekeepingIsDue(ctx)).toBe(true);
    await ran(HOUSEKEEPING_JOB);
    expect(await housekeepingIsDue(ctx)).toBe(false);
    // 03:29: yesterday's slot still holds.
    clock.set(Date.parse('2025-03-10T03:29:00Z'));
    expect(await housekeepingIsDue(ctx)).toBe(false);
    clock.set(Date.parse('2025-03-10T03:30:00Z'));
    expect(await housekeepingIsDue(ctx)).toBe(true);
  });
});

describe('digestIsDue', () => {
  it('is due from the lead before the digest time, not earlier, and never with the digest off', async () => {
    await subscribe({ digest: false });
    clock.set(Date.parse('2025-03-10T09:00:00Z'));
    expect(await digestIsDue(ctx, clock.now())).toBe(false);
    await subscribe({ digest: true });
    const at = Date.parse('2025-03-10T09:00:00Z');
    expect(await digestIsDue(ctx, at - DIGEST_LEAD_MS - 60_000)).toBe(false);
    expect(await digestIsDue(ctx, at - DIGEST_LEAD_MS)).toBe(true);
  });
});

describe('nextWeekly', () => {
  it('is null with no weekly summary on, else the next one in its time zone', async () => {
    await subscribe({ weekly: false });
    expect(await nextWeekly(ctx, clock.now())).toBeNull();
    await subscribe({ weekly: true });
    expect(await nextWeekly(ctx, clock.now())).toBe(Date.parse('2025-03-10T09:00:00Z'));
  });
});

describe('quotaWaiting', () => {
  it('holds until the reset and then lets go by itself', () => {
    ctx.state.quotaWaitUntil = clock.now() + H;
    expect(quotaWaiting(ctx.state, clock.now())).toBe(true);
    expect(quotaWaiting(ctx.state, clock.now() + H)).toBe(false);
    expect(ctx.state.quotaWaitUntil).toBeNull();
  });
});

describe('snapshotScheduler', () => {
  it('shows when each job runs next and when the digest is prepared', async () => {
    await subscribe({ digest: true, weekly: true });
    const snap = await snapshotScheduler(ctx);
    const at = Date.parse('2025-03-10T09:00:00Z');
    expect(snap.jobs.digest).toMatchObject({
      nextRunAtMs: at,
      prepareAtMs: at - DIGEST_LEAD_MS,
      running: false,
    });
    expect(snap.jobs.weekly).toMatchObject({ nextRunAtMs: at, prepareAtMs: null, intervalHours: null });
    expect(snap.jobs.citations).toMatchObject({ lastRunAtMs: null, intervalHours: 24 });
    expect(snap.quotaWaitUntilMs).toBeNull();
  });

  it('while the quota is spent, every job runs next at the reset and no digest is prepared', async () => {
    await subscribe({ digest: true });
    ctx.state.quotaWaitUntil = clock.now() + 5 * H;
    const snap = await snapshotScheduler(ctx);
    for (const job of ['citations', 'crawler', 'ai-pages', 'digest', 'weekly'] as const)
      expect(snap.jobs[job].nextRunAtMs).toBe(clock.now() + 5 * H);
    expect(snap.jobs.digest.prepareAtMs).toBeNull();
    expect(snap.quotaWaitUntilMs).toBe(clock.now() + 5 * H);
  });
});
