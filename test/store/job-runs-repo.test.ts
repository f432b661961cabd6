import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createJobRunsRepo } from '../../src/store/job-runs-repo.js';
import { manualClock, type TempDb, tempDb } from './temp-db.js';

let t: TempDb;
beforeEach(() => {
  t = tempDb();
});
afterEach(() => t.close());

describe('job runs', () => {
  it('records runs and the last success of the job and of each brand', () => {
    const clock = manualClock(1000);
    const jobs = createJobRunsRepo(t.db, clock);
    expect(jobs.lastSuccess('citations')).toBeNull();
    const r1 = jobs.start('citations', 'serve');
    clock.advance(500);
    jobs.finish(r1, { ok: true, counts: { brands: 3, alerts: 2 } });
    jobs.recordBrandSuccess('citations', 'b1');
    const r2 = jobs.start('citations');
    clock.advance(500);
    jobs.finish(r2, { ok: false, error: 'api_server' });
    jobs.recordBrandSuccess('citations', 'b2', 1700);
    jobs.recordBrandSuccess('citations', 'b2', 1600); // an older success never moves it back
    expect(jobs.lastSuccess('citations')).toBe(1500);
    expect(jobs.lastSuccess('citations', 'b1')).toBe(1500);
    expect(jobs.lastSuccess('citations', 'b2')).toBe(1700);
    expect(jobs.lastSuccess('citations', 'b3')).toBeNull();
    expect(jobs.lastSuccess('crawler')).toBeNull();
    expect(jobs.lastSuccessByBrand('citations')).toEqual(
      new Map([
        ['b1', 1500],
        ['b2', 1700],
      ]),
    );
    expect(jobs.recent(10, 'citations').map((r) => [r.ok, r.error, r.counts])).toEqual([
      [false, 'api_server', {}],
      [true, null, { brands: 3, alerts: 2 }],
    ]);
    const running = jobs.start('digest');
    expect(jobs.recent(1)[0]).toMatchObject({ id: running, job: 'digest', ok: null, finishedAtMs: null });
  });

  it('counts consecutive failures since the last success', () => {
    const jobs = createJobRunsRepo(t.db, manualClock());
    const finish = (ok: boolean) => jobs.finish(jobs.start('crawler'), { ok });
    expect(jobs.failureStreak('crawler')).toBe(0);
    finish(false);
    finish(true);
    finish(false);
    finish(false);
    expect(jobs.failureStreak('crawler')).toBe(2);
    finish(true);
    expect(jobs.failureStreak('crawler')).toBe(0);
  });
});

describe('job lease', () => {
  it('two connections (serve and run-job) never hold the same job at once', () => {
    const clock = manualClock(10_000);
    const serve = createJobRunsRepo(t.db, clock);
    const runJob = createJobRunsRepo(t.open(), clock);
    expect(serve.acquireLease('citations', 'serve', 60_000)).toBe(true);
    expect(runJob.acquireLease('citations', 'run-job', 60_000)).toBe(false);
    // Other jobs are independent.
    expect(runJob.acquireLease('digest', 'run-job', 60_000)).toBe(true);
    // The holder can re-acquire (extend) without losing it.
    clock.advance(30_000);
    expect(serve.acquireLease('citations', 'serve', 60_000)).toBe(true);
    expect(serve.getLease('citations')).toMatchObject({
      owner: 'serve',
      acquiredAtMs: 10_000,
      expiresAtMs: 100_000,
    });
    expect(serve.renewLease('citations', 'serve', 60_000)).toBe(true);
    expect(runJob.renewLease('citations', 'run-job', 60_000)).toBe(false);
    expect(runJob.releaseLease('citations', 'run-job')).toBe(false);
    expect(serve.releaseLease('citations', 'serve')).toBe(true);
    expect(runJob.acquireLease('citations', 'run-job', 60_000)).toBe(true);
  });

  it('an expired lease (a crashed holder) can be taken over; the old holder cannot renew it', () => {
    const clock = manualClock(0);
    const a = createJobRunsRepo(t.db, clock);
    const b = createJobRunsRepo(t.open(), clock);
    expect(a.acquireLease('crawler', 'A', 1000)).toBe(true);
    clock.advance(999);
    expect(b.acquireLease('crawler', 'B', 1000)).toBe(false);
    clock.advance(1);
    expect(b.acquireLease('crawler', 'B', 1000)).toBe(true);
    expect(a.renewLease('crawler', 'A', 1000)).toBe(false);
    expect(b.getLease('crawler')).toMatchObject({ owner: 'B', acquiredAtMs: 1000, expiresAtMs: 2000 });
  });
});
