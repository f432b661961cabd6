import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createJobRunsRepo } from '../../src/store/job-runs-repo.js';
import { manualClock, type TempDb, tempDb } from './temp-db.js';

let t: TempDb;
beforeEach(() => {
  t = tempDb();
});
afterEach(() => t.close());

describe('job runs', () => {
  it('records runs and the last success of the job and of each brand', async () => {
    const clock = manualClock(1000);
    const jobs = createJobRunsRepo(t.db, clock);
    expect(await jobs.lastSuccess('citations')).toBeNull();
    const r1 = await jobs.start('citations', 'serve');
    clock.advance(500);
    await jobs.finish(r1, { ok: true, counts: { brands: 3, alerts: 2 } });
    await jobs.recordBrandSuccess('citations', 'b1');
    const r2 = await jobs.start('citations');
    clock.advance(500);
    await jobs.finish(r2, { ok: false, error: 'api_server' });
    await jobs.recordBrandSuccess('citations', 'b2', 1700);
    await jobs.recordBrandSuccess('citations', 'b2', 1600); // an older success never moves it back
    expect(await jobs.lastSuccess('citations')).toBe(1500);
    expect(await jobs.lastSuccess('citations', 'b1')).toBe(1500);
    expect(await jobs.lastSuccess('citations', 'b2')).toBe(1700);
    expect(await jobs.lastSuccess('citations', 'b3')).toBeNull();
    expect(await jobs.lastSuccess('crawler')).toBeNull();
    expect(await jobs.lastSuccessByBrand('citations')).toEqual(
      new Map([
        ['b1', 1500],
        ['b2', 1700],
      ]),
    );
    expect((await jobs.recent(10, 'citations')).map((r) => [r.ok, r.error, r.counts])).toEqual([
      [false, 'api_server', {}],
      [true, null, { brands: 3, alerts: 2 }],
    ]);
    const running = await jobs.start('digest');
    expect((await jobs.recent(1))[0]).toMatchObject({
      id: running,
      job: 'digest',
      ok: null,
      finishedAtMs: null,
    });
  });

  it('counts consecutive failures since the last success', async () => {
    const jobs = createJobRunsRepo(t.db, manualClock());
    const finish = async (ok: boolean) => jobs.finish(await jobs.start('crawler'), { ok });
    expect(await jobs.failureStreak('crawler')).toBe(0);
    await finish(false);
    await finish(true);
    await finish(false);
    await finish(false);
    expect(await jobs.failureStreak('crawler')).toBe(2);
    await finish(true);
    expect(await jobs.failureStreak('crawler')).toBe(0);
  });
});

describe('job lease', () => {
  it('two connections (serve and run-job) never hold the same job at once', async () => {
    const clock = manualClock(10_000);
    const serve = createJobRunsRepo(t.db, clock);
    const runJob = createJobRunsRepo(t.open(), clock);
    expect(await serve.acquireLease('citations', 'serve', 60_000)).toBe(true);
    expect(await runJob.acquireLease('citations', 'run-job', 60_000)).toBe(false);
    // Other jobs are independent.
    expect(await runJob.acquireLease('digest', 'run-job', 60_000)).toBe(true);
    // The holder can re-acquire (extend) without losing it.
    clock.advance(30_000);
    expect(await serve.acquireLease('citations', 'serve', 60_000)).toBe(true);
    expect(await serve.getLease('citations')).toMatchObject({
      owner: 'serve',
      acquiredAtMs: 10_000,
      expiresAtMs: 100_000,
    });
    expect(await serve.renewLease('citations', 'serve', 60_000)).toBe(true);
    expect(await runJob.renewLease('citations', 'run-job', 60_000)).toBe(false);
    expect(await runJob.releaseLease('citations', 'run-job')).toBe(false);
    expect(await serve.releaseLease('citations', 'serve')).toBe(true);
    expect(await runJob.acquireLease('citations', 'run-job', 60_000)).toBe(true);
  });

  it('an expired lease (a crashed holder) can be taken over; the old holder cannot renew it', async () => {
    const clock = manualClock(0);
    const a = createJobRunsRepo(t.db, clock);
    const b = createJobRunsRepo(t.open(), clock);
    expect(await a.acquireLease('crawler', 'A', 1000)).toBe(true);
    clock.advance(999);
    expect(await b.acquireLease('crawler', 'B', 1000)).toBe(false);
    clock.advance(1);
    expect(await b.acquireLease('crawler', 'B', 1000)).toBe(true);
    expect(await a.renewLease('crawler', 'A', 1000)).toBe(false);
    expect(await b.getLease('crawler')).toMatchObject({ owner: 'B', acquiredAtMs: 1000, expiresAtMs: 2000 });
  });
});
