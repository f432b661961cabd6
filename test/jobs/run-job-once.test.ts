/**
 * The part every job shares (run-job-once.ts), with the real AI Pages job, repositories
 * and outbox on a SQLite file and an API stand-in that records what was asked.
 */
import { hostname } from 'node:os';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorFromTransport } from '../../src/api/error-from-transport.js';
import { QuotaExhaustedError, ServerError, UnauthorizedError } from '../../src/api/errors.js';
import { aiPagesJob } from '../../src/jobs/ai-pages-job.js';
import { BRAND_CONCURRENCY, type RunJobOnceOptions, runJobOnce } from '../../src/jobs/run-job-once.js';
import { createSqliteStore } from '../../src/store/create-sqlite-store.js';
import { aiPagesRecord, type JobFixture, jobFixture, OPS, runOnceOptions } from './job-fixture.js';

let f: JobFixture;
beforeEach(() => {
  f = jobFixture();
});
afterEach(() => f.close());

// force: every brand on every run (the AI Pages cadence is tested in ai-pages-cadence.test.ts).
const run = (o: Partial<RunJobOnceOptions> = {}) =>
  runJobOnce(f.ctx, aiPagesJob, { ...runOnceOptions, force: true, ...o });
const opsRows = async () => (await f.ctx.outbox.listHeld()).length + (await f.ctx.outbox.counts()).pending;
const flags = async () => (await createSqliteStore(f.store.db).healthFlags.active()).map((x) => x.key);

describe('one run of a job', () => {
  it('calls the API once per brand on the background lane and fans out to every channel', async () => {
    await f.subscribe('C1', 'b1');
    await f.subscribe('C2', 'b1');
    await f.subscribe('C1', 'b2');
    f.fake.aiPages = (p) => aiPagesRecord(String(p['brandId']), 85);
    const s = await run();
    expect(f.fake.calls.map((c) => [c.method, c.params['brandId'], c.lane])).toEqual([
      ['getAiPages', 'b1', 'background'],
      ['getAiPages', 'b2', 'background'],
    ]);
    expect(s).toMatchObject({ status: 'ok', brands: 2, succeeded: 2, alerts: 3, messages: 3 });
    expect(await f.ctx.jobRuns.lastSuccess('ai-pages', 'b1')).toBe(f.clock.now());
    expect((await f.ctx.jobRuns.recent(1, 'ai-pages'))[0]).toMatchObject({
      ok: true,
      counts: { brands: 2, messages: 3 },
    });
    expect(await f.ctx.jobRuns.getLease('ai-pages')).toBeNull();
  });

  it('keeps a few brands in flight once a call went through, so round trips overlap', async () => {
    for (let b = 1; b <= 10; b++) await f.subscribe('C1', `b${b}`);
    let inFlight = 0;
    const seen: number[] = [];
    const answers: (() => void)[] = [];
    f.fake.aiPages = async (p) => {
      inFlight++;
      seen.push(inFlight);
      // Answered in a later turn, as a response from the network would be.
      await new Promise<void>((resolve) => answers.push(resolve));
      inFlight--;
      return aiPagesRecord(String(p['brandId']), 10);
    };
    const running = run();
    while (f.fake.calls.length < 10 || answers.length > 0) {
      await new Promise((r) => setImmediate(r));
      for (const answer of answers.splice(0)) answer();
    }
    expect(await running).toMatchObject({ status: 'ok', succeeded: 10 });
    // The first brand alone (a spent quota stops after one call), then four at a time.
    expect(seen[0]).toBe(1);
    expect(Math.max(...seen)).toBe(BRAND_CONCURRENCY);
    expect(f.fake.calls.map((c) => c.params['brandId'])).toEqual(
      Array.from({ length: 10 }, (_, i) => `b${i + 1}`),
    );
    // With a gap between brands (people first), one at a time.
    seen.length = 0;
    const gapped = run({ brandGapMs: 10 });
    while (seen.length < 10 || answers.length > 0) {
      await new Promise((r) => setImmediate(r));
      for (const answer of answers.splice(0)) answer();
    }
    await gapped;
    expect(Math.max(...seen)).toBe(1);
  });

  it('goes on after one brand fails; fails when all do; job_failing after three failed runs, once', async () => {
    await f.subscribe('C1', 'b1');
    await f.subscribe('C1', 'b2');
    f.fake.aiPages = (p) => {
      if (p['brandId'] === 'b1') throw new ServerError('service unavailable', { status: 503 });
      return aiPagesRecord('b2', 10);
    };
    expect(await run()).toMatchObject({ status: 'ok', succeeded: 1, failed: 1 });

    f.fake.aiPages = () => {
      throw new ServerError('service unavailable', { status: 503 });
    };
    for (let i = 0; i < 2; i++) expect((await run()).status).toBe('failed');
    expect(await flags()).toEqual([]);
    await run();
    expect(await flags()).toEqual(['job_failing:ai-pages']);
    await run();
    expect(await opsRows()).toBe(1);
    expect(
      (await f.ctx.outbox.getByDedupeKey(`ops:job_failing:ai-pages:raised:${f.clock.now()}`))?.channelId,
    ).toBe(OPS);

    f.fake.aiPages = (p) => aiPagesRecord(String(p['brandId']), 10);
    expect((await run()).status).toBe('ok');
    expect(await flags()).toEqual([]);
    expect(await opsRows()).toBe(2);
  });

  it('stops at a spent quota or a rejected key, raises each once, and clears after a good call', async () => {
    await f.subscribe('C1', 'b1');
    await f.subscribe('C1', 'b2');
    const resetAt = Date.parse('2025-03-11T00:00:00Z');
    f.fake.aiPages = () => {
      throw new QuotaExhaustedError(resetAt);
    };
    expect(await run()).toMatchObject({ status: 'quota_spent', quotaResetAt: resetAt, succeeded: 0 });
    expect(f.fake.calls).toHaveLength(1);
    expect(await flags()).toEqual(['quota_spent']);

    f.fake.aiPages = () => {
      throw new UnauthorizedError('Invalid API key', { status: 401 });
    };
    expect(await run()).toMatchObject({ status: 'key_rejected' });
    expect(await run()).toMatchObject({ status: 'key_rejected' });
    expect(f.fake.calls).toHaveLength(3);
    // Raised at the same moment: listed by key, the same on every backend.
    expect(await flags()).toEqual(['key_rejected', 'quota_spent']);
    // Neither is a failing job: they have flags of their own.
    expect(await f.ctx.jobRuns.failureStreak('ai-pages')).toBe(3);
    expect(await flags()).not.toContain('job_failing:ai-pages');

    f.fake.aiPages = (p) => aiPagesRecord(String(p['brandId']), 10);
    await run();
    expect(await flags()).toEqual([]);
  });

  it('skips when another process holds the lease, waits for it when asked, and takes over a dead one', async () => {
    await f.subscribe('C1', 'b1');
    await f.ctx.jobRuns.acquireLease('ai-pages', 'serve:elsewhere:1', 5_000);
    const skipped = await run();
    expect(skipped).toMatchObject({
      status: 'skipped',
      detail: 'another process is running it (serve:elsewhere:1)',
    });
    expect(f.fake.calls).toHaveLength(0);
    expect(await f.ctx.jobRuns.recent(5, 'ai-pages')).toEqual([]);

    // The lease expires during the wait (the test clock moves with every sleep).
    expect((await run({ leaseWaitMs: 10_000 })).status).toBe('ok');

    await f.ctx.jobRuns.acquireLease('ai-pages', `run-job:${hostname()}:2147483646`, 600_000);
    expect((await run()).status).toBe('ok');
  });

  it('renews its lease once a tenth of its time has passed, and stops at the next brand when another process took it', async () => {
    for (const b of ['b1', 'b2', 'b3', 'b4']) await f.subscribe('C1', b);
    const ttl = runOnceOptions.leaseTtlMs;
    // How long each brand takes: b3 longer than the whole lease, which another process then takes.
    const takes: Record<string, number> = { b1: 1, b2: ttl / 10, b3: ttl + 1 };
    const expiries: (number | undefined)[] = [];
    f.fake.aiPages = async (p) => {
      const brandId = String(p['brandId']);
      expiries.push((await f.ctx.jobRuns.getLease('ai-pages'))?.expiresAtMs);
      f.clock.advance(takes[brandId] ?? 0);
      if (brandId === 'b3') await f.ctx.jobRuns.acquireLease('ai-pages', 'serve:elsewhere:1', 600_000);
      return aiPagesRecord(brandId, 10);
    };
    const start = f.clock.now();
    const s = await run({ concurrency: 1 });
    // Taken at the start; not renewed for b2 (1 ms later), renewed for b3 (a tenth later).
    expect(expiries).toEqual([start + ttl, start + ttl, start + 1 + ttl / 10 + ttl]);
    expect(s).toMatchObject({
      status: 'aborted',
      detail: 'the job lease was lost to another process',
      succeeded: 3,
    });
    expect(f.fake.calls.map((c) => c.params['brandId'])).toEqual(['b1', 'b2', 'b3']);
    expect((await f.ctx.jobRuns.getLease('ai-pages'))?.owner).toBe('serve:elsewhere:1');
  });

  it('stops between brands when the run is cancelled', async () => {
    await f.subscribe('C1', 'b1');
    await f.subscribe('C1', 'b2');
    const stop = new AbortController();
    f.ctx.signal = stop.signal;
    f.fake.aiPages = (p) => {
      stop.abort();
      return aiPagesRecord(String(p['brandId']), 10);
    };
    expect(await run()).toMatchObject({ status: 'aborted', succeeded: 1 });
    expect(f.fake.calls).toHaveLength(1);
  });
});

describe('a run while the service cannot be reached', () => {
  it('stops at the first brand and names the service, not the database', async () => {
    for (let b = 1; b <= 3; b++) await f.subscribe('C1', `b${b}`);
    // What the client throws after its retries when nothing listens at the API's address.
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:443'), { code: 'ECONNREFUSED' });
    f.fake.aiPages = () => {
      throw errorFromTransport(refused, 'GET /ai-pages', undefined);
    };
    const s = await run();
    expect(s).toMatchObject({ status: 'failed', succeeded: 0 });
    expect(s.detail).toContain('Could not reach the Brand Visibility API');
    expect(s.detail).not.toContain('database');
    expect(f.fake.calls).toHaveLength(1);
    expect((await f.ctx.jobRuns.recent(1, 'ai-pages'))[0]).toMatchObject({ ok: false });
  });
});

describe('a run while the database cannot be used', () => {
  it('does not start, and says why, when the file is locked before it', async () => {
    await f.subscribe('C1', 'b1');
    f.store.db.pragma('busy_timeout = 10');
    const holder = f.store.open();
    holder.exec('BEGIN EXCLUSIVE');
    const s = await run();
    holder.exec('ROLLBACK');
    expect(s).toMatchObject({ status: 'database_unavailable', brands: 0 });
    expect(s.detail).toContain('the database could not be used');
    expect(f.fake.calls).toEqual([]);
    expect(f.logs.filter((l) => l.level >= 40)).toEqual([]);
  });

  it('stops at the brand that met the lock, quietly, and the next run serves every brand', async () => {
    for (let b = 1; b <= 3; b++) await f.subscribe('C1', `b${b}`);
    f.store.db.pragma('busy_timeout = 10');
    const holder = f.store.open();
    f.fake.aiPages = (p) => {
      if (p['brandId'] === 'b1') holder.exec('BEGIN EXCLUSIVE');
      return aiPagesRecord(String(p['brandId']), 85);
    };
    const s = await run();
    expect(s).toMatchObject({ status: 'database_unavailable', succeeded: 0, failed: 0 });
    // Nothing logged as a failure of a brand or of the run.
    expect(f.logs.filter((l) => l.level >= 40)).toEqual([]);
    holder.exec('ROLLBACK');
    f.fake.aiPages = (p) => aiPagesRecord(String(p['brandId']), 85);
    f.clock.advance(60_000);
    expect(await run()).toMatchObject({ status: 'ok', succeeded: 3 });
  });
});
