/**
 * JobRunsRepo on both backends: run bookkeeping, each brand's last success, and the job
 * lease that keeps `serve`, its replicas and `run-job` from running one job twice at once.
 */
import { expect, it } from 'vitest';
import type { Clock } from '../../../src/clock.js';
import type { JobRunsRepo } from '../../../src/store/job-runs-repo.js';
import { manualClock } from '../temp-db.js';
import { describeBackends, type TestBackend } from './store-backends.js';

const repoOn = (b: TestBackend, clock: Clock): JobRunsRepo => b.store({ clock }).jobRuns;

describeBackends('job runs', (backend) => {
  it('records runs and the last success of the job and of each brand', async () => {
    const clock = manualClock(1000);
    const jobs = repoOn(backend(), clock);
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
    expect(await jobs.lastSuccessByBrand('crawler')).toEqual(new Map());
    expect((await jobs.recent(10, 'citations')).map((r) => [r.ok, r.error, r.counts])).toEqual([
      [false, 'api_server', {}],
      [true, null, { brands: 3, alerts: 2 }],
    ]);
    const running = await jobs.start('digest');
    expect(await jobs.recent(1)).toEqual([
      {
        id: running,
        job: 'digest',
        owner: null,
        startedAtMs: 2000,
        finishedAtMs: null,
        ok: null,
        error: null,
        counts: {},
      },
    ]);
    expect((await jobs.recent(10)).map((r) => r.id)).toEqual([running, r2, r1]);
    expect(await jobs.recent(10, 'citations')).toMatchObject([
      { id: r2, owner: null, startedAtMs: 1500, finishedAtMs: 2000 },
      { id: r1, owner: 'serve', startedAtMs: 1000, finishedAtMs: 1500 },
    ]);
  });

  it("records several brands' successes at once, never moving one back", async () => {
    const jobs = repoOn(backend(), manualClock(1000));
    await jobs.recordBrandSuccess('crawler', 'b1', 2000);
    await jobs.recordBrandSuccesses('crawler', ['b1', 'b2', 'b3', 'b2'], 1500);
    await jobs.recordBrandSuccesses('crawler', []);
    await jobs.recordBrandSuccesses('crawler', ['b3']);
    expect(await jobs.lastSuccessByBrand('crawler')).toEqual(
      new Map([
        ['b1', 2000],
        ['b2', 1500],
        ['b3', 1500],
      ]),
    );
    expect(await jobs.lastSuccessByBrand('citations')).toEqual(new Map());
  });

  it('counts consecutive failures since the last success', async () => {
    const jobs = repoOn(backend(), manualClock());
    const finish = async (ok: boolean) => jobs.finish(await jobs.start('crawler'), { ok });
    expect(await jobs.failureStreak('crawler')).toBe(0);
    await finish(false);
    await finish(true);
    await finish(false);
    await finish(false);
    // Another job's failures and a run still going are not part of the streak.
    await jobs.finish(await jobs.start('digest'), { ok: false });
    await jobs.start('crawler');
    expect(await jobs.failureStreak('crawler')).toBe(2);
    await finish(true);
    expect(await jobs.failureStreak('crawler')).toBe(0);
    expect(await jobs.failureStreak('digest')).toBe(1);
  });

  it('keeps an error text with a NUL from the API instead of failing the write', async () => {
    const b = backend();
    const jobs = repoOn(b, manualClock(0));
    const id = await jobs.start('citations', 'serve');
    await jobs.finish(id, { ok: false, error: 'bad body: a\u0000b', counts: { 'brands\u0000': 1 } });
    const [run] = await jobs.recent(1);
    expect(run!.ok).toBe(false);
    // SQLite keeps the NUL; Postgres cannot, and stores the replacement character.
    expect(run!.error).toBe(b.kind === 'sqlite' ? 'bad body: a\u0000b' : 'bad body: a\ufffdb');
    expect(Object.values(run!.counts)).toEqual([1]);
  });

  it('a run started and finished inside a transaction that rolls back leaves nothing', async () => {
    const b = backend();
    const jobs = repoOn(b, manualClock(0));
    await expect(
      b.transaction(async () => {
        await jobs.finish(await jobs.start('citations'), { ok: true });
        await jobs.recordBrandSuccess('citations', 'b1', 5);
        await jobs.acquireLease('citations', 'serve', 1000);
        throw new Error('the job failed');
      }),
    ).rejects.toThrow('the job failed');
    expect(await jobs.recent(10)).toEqual([]);
    expect(await jobs.lastSuccess('citations')).toBeNull();
    expect(await jobs.lastSuccess('citations', 'b1')).toBeNull();
    expect(await jobs.getLease('citations')).toBeNull();
  });

  it('two connections (serve and run-job) never hold the same job at once', async () => {
    const clock = manualClock(10_000);
    const serve = repoOn(backend(), clock);
    const runJob = repoOn(backend().other(), clock);
    expect(await serve.getLease('citations')).toBeNull();
    expect(await serve.acquireLease('citations', 'serve', 60_000)).toBe(true);
    expect(await runJob.acquireLease('citations', 'run-job', 60_000)).toBe(false);
    // Other jobs are independent.
    expect(await runJob.acquireLease('digest', 'run-job', 60_000)).toBe(true);
    // The holder can re-acquire (extend) without losing it.
    clock.advance(30_000);
    expect(await serve.acquireLease('citations', 'serve', 60_000)).toBe(true);
    expect(await runJob.getLease('citations')).toEqual({
      job: 'citations',
      owner: 'serve',
      acquiredAtMs: 10_000,
      expiresAtMs: 100_000,
    });
    expect(await serve.renewLease('citations', 'serve', 60_000)).toBe(true);
    expect(await runJob.renewLease('citations', 'run-job', 60_000)).toBe(false);
    expect(await runJob.releaseLease('citations', 'run-job')).toBe(false);
    expect(await serve.releaseLease('citations', 'serve')).toBe(true);
    expect(await serve.releaseLease('citations', 'serve')).toBe(false);
    expect(await runJob.acquireLease('citations', 'run-job', 60_000)).toBe(true);
  });

  it('an expired lease (a crashed holder) can be taken over; the old holder cannot renew it', async () => {
    const clock = manualClock(0);
    const a = repoOn(backend(), clock);
    const b = repoOn(backend().other(), clock);
    expect(await a.acquireLease('crawler', 'A', 1000)).toBe(true);
    clock.advance(999);
    expect(await b.acquireLease('crawler', 'B', 1000)).toBe(false);
    clock.advance(1);
    expect(await a.renewLease('crawler', 'A', 1000)).toBe(false);
    expect(await b.acquireLease('crawler', 'B', 1000)).toBe(true);
    expect(await a.renewLease('crawler', 'A', 1000)).toBe(false);
    expect(await a.releaseLease('crawler', 'A')).toBe(false);
    expect(await b.getLease('crawler')).toEqual({
      job: 'crawler',
      owner: 'B',
      acquiredAtMs: 1000,
      expiresAtMs: 2000,
    });
  });

  it('of several connections racing for a free or an expired lease, exactly one wins', async () => {
    const clock = manualClock(0);
    const replicas = [backend(), backend().other(), backend().other(), backend().other()].map((b) =>
      repoOn(b, clock),
    );
    const race = () => Promise.all(replicas.map((r, i) => r.acquireLease('citations', `replica-${i}`, 1000)));
    const first = await race();
    expect(first.filter(Boolean)).toHaveLength(1);
    const holder = `replica-${first.indexOf(true)}`;
    expect((await replicas[0]!.getLease('citations'))!.owner).toBe(holder);

    clock.advance(1000); // the holder died; its lease ran out
    const second = await race();
    // The old holder may win again (it re-acquires its own); still exactly one holds it.
    expect(second.filter(Boolean)).toHaveLength(1);
    expect(await replicas[0]!.getLease('citations')).toMatchObject({
      owner: `replica-${second.indexOf(true)}`,
      expiresAtMs: 2000,
    });
  });
});
