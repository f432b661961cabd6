/**
 * The daily housekeeping (housekeeping-job.ts) on every backend: what it deletes and what it
 * keeps, counted in the tables themselves; batches; the job lease and replicas running it
 * at once; the run record and the one summary line.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Retention } from '../../src/config.js';
import { runHousekeeping } from '../../src/jobs/housekeeping-job.js';
import { createSqliteStore } from '../../src/store/create-sqlite-store.js';
import { openDatabase } from '../../src/store/open-database.js';
import { manualClock } from '../helpers/manual-clock.js';
import { describeBackends, type TestBackend } from '../store/contract/store-backends.js';
import { captureLogger, type LogLine } from './job-fixture.js';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 28, 3, 30);
const ago = (days: number) => NOW - days * DAY;

const RETENTION: Retention = { messagesDays: 90, pollDataDays: 90, jobRunsDays: 90, auditDays: 365 };

function depsOn(b: TestBackend, retention: Retention = RETENTION, lines: LogLine[] = []) {
  const clock = manualClock(NOW);
  return { store: b.store({ clock }), clock, logger: captureLogger(lines), config: { retention } };
}

const options = { owner: 'me', leaseWaitMs: 0, leaseTtlMs: 60_000 };

let seq = 0;
async function outboxRow(
  b: TestBackend,
  status: 'pending' | 'held' | 'sending' | 'sent' | 'failed',
  createdAtMs: number,
  sentAtMs: number | null = null,
) {
  seq += 1;
  await b.exec(
    `INSERT INTO outbox (dedupe_key, channel_id, brand_id, kind, payload, status, next_attempt_at_ms,
       hold_until_ms, created_at_ms, sent_at_ms) VALUES (?, 'C1', 'b1', 'alert', ?, ?, ?, ?, ?, ?)`,
    `k${seq}`,
    '{"text":"an alert"}',
    status,
    createdAtMs,
    status === 'held' ? NOW + DAY : null,
    createdAtMs,
    sentAtMs,
  );
}

async function counts(b: TestBackend) {
  const n = async (table: string, where = 'TRUE') =>
    Number((await b.rows<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`))[0]!.n);
  return {
    outbox: await n('outbox'),
    handledRequests: await n('handled_requests'),
    snoozes: await n('snoozes'),
    pollObservations: await n('poll_observations'),
    jobRuns: await n('job_runs', "job <> 'housekeeping'"),
    auditLog: await n('audit_log'),
    alertStates: await n('alert_states'),
  };
}

/** A mix of rows past their retention and rows that must stay, on every table it purges. */
async function seed(b: TestBackend) {
  // Outbox: three sent long ago and one given up long ago go; a recent post, and anything
  // still to be delivered (pending, held, being sent), however old, stays.
  for (const d of [200, 150, 91]) await outboxRow(b, 'sent', ago(d + 1), ago(d));
  await outboxRow(b, 'failed', ago(120));
  await outboxRow(b, 'sent', ago(11), ago(10));
  await outboxRow(b, 'pending', ago(300));
  await outboxRow(b, 'held', ago(300));
  await outboxRow(b, 'sending', ago(300));

  const store = b.store();
  // Slack redelivery records: past the hour Slack redelivers in, and within it.
  await store.handledRequests.remember('old', NOW - 2 * 3_600_000, 3_600_000);
  await store.handledRequests.remember('recent', NOW - 10 * 60_000, 3_600_000);
  // Snoozes: one over, one running.
  const snooze = { channelId: 'C1', brandId: 'b1', createdBy: 'U1', createdAtMs: ago(3) };
  await store.snoozes.snooze({ ...snooze, kind: 'citation_lost', untilMs: ago(1) });
  await store.snoozes.snooze({ ...snooze, kind: 'crawler_drop', untilMs: NOW + DAY });
  // Poll results: a brand no longer polled, a brand polled yesterday.
  await store.pollObservations.put('gone', 'citations', { n: 1 }, ago(100));
  await store.pollObservations.put('b1', 'citations', { n: 2 }, ago(1));
  // Job runs: two old citations runs go, its recent one stays; the digest's only run is old
  // but the newest of its job, so it stays.
  for (const [job, d] of [
    ['citations', 120],
    ['citations', 100],
    ['digest', 200],
    ['citations', 2],
  ] as const)
    await b.exec(
      `INSERT INTO job_runs (job, owner, started_at_ms, finished_at_ms, ok, counts) VALUES (?, 'x', ?, ?, ?, '{}')`,
      job,
      ago(d),
      ago(d),
      b.kind === 'sqlite' ? 1 : true,
    );
  // Audit: a year and more ago goes, three months ago stays.
  const entry = { userId: 'U1', action: 'subscribe', result: 'ok' };
  await store.auditLog.record({ ...entry, atMs: ago(400) });
  await store.auditLog.record({ ...entry, atMs: ago(366) });
  await store.auditLog.record({ ...entry, atMs: ago(100) });
  // Alert states: one resolved long ago goes (its subjects with it); one posted long ago
  // but resolved lately, and one still open from yesterday, stay.
  const posted = (outboxId: number, d: number) => ({
    outboxId,
    channelId: 'C1',
    messageTs: `1.${outboxId}`,
    brandId: 'b1',
    headline: 'Cited page lost',
    kinds: ['citation_lost'],
    alertCount: 1,
    postedAtMs: ago(d),
    subjects: [`citation_lost:https://x.example/${outboxId}`],
  });
  const gone = (await store.alertStates.recordPosted(posted(901, 200))).state;
  await store.alertStates.resolve(gone.id, { byUserId: 'U1', note: '', atMs: ago(150) });
  const late = (await store.alertStates.recordPosted(posted(902, 200))).state;
  await store.alertStates.resolve(late.id, { byUserId: 'U1', note: '', atMs: ago(5) });
  await store.alertStates.recordPosted(posted(903, 1));
}

describeBackends('housekeeping', (backend) => {
  it('deletes what is past its retention, in batches, and keeps recent and undelivered rows', async () => {
    const b = backend();
    await seed(b);
    const lines: LogLine[] = [];
    const s = await runHousekeeping(depsOn(b, RETENTION, lines), { ...options, batchSize: 2 });
    expect(s.status).toBe('ok');
    const deleted = {
      outbox: 4,
      handledRequests: 1,
      snoozes: 1,
      pollObservations: 1,
      jobRuns: 2,
      auditLog: 2,
      alertStates: 1,
    };
    expect(s.deleted).toEqual(deleted);
    expect(await counts(b)).toEqual({
      outbox: 4,
      handledRequests: 1,
      snoozes: 1,
      pollObservations: 1,
      jobRuns: 2,
      auditLog: 1,
      alertStates: 2,
    });
    // What stays is what must: the recent post and every row still to be delivered.
    const left = await b.rows<{ status: string }>('SELECT status FROM outbox ORDER BY status');
    expect(left.map((r) => r.status)).toEqual(['held', 'pending', 'sending', 'sent']);
    expect((await b.store().pollObservations.get('b1', 'citations'))?.data).toEqual({ n: 2 });
    expect((await b.store().snoozes.listActive(NOW)).map((x) => x.kind)).toEqual(['crawler_drop']);
    const jobs = await b.rows<{ job: string }>(
      "SELECT job FROM job_runs WHERE job <> 'housekeeping' ORDER BY job",
    );
    expect(jobs.map((r) => r.job)).toEqual(['citations', 'digest']);

    // Recorded like every job, and one summary line with the counts per table.
    const run = (await b.store().jobRuns.recent(1, 'housekeeping'))[0];
    expect(run).toMatchObject({ ok: true, startedAtMs: NOW, counts: deleted });
    const summaries = lines.filter((l) => l.msg.startsWith('housekeeping'));
    expect(summaries).toHaveLength(1);
    expect(summaries[0]).toMatchObject({ msg: 'housekeeping ok', deleted });
    expect(await b.store().jobRuns.getLease('housekeeping')).toBeNull();
  });

  it('keeps each kind of row as long as its setting says', async () => {
    const b = backend();
    await seed(b);
    const short: Retention = { messagesDays: 5, pollDataDays: 1, jobRunsDays: 1, auditDays: 30 };
    const s = await runHousekeeping(depsOn(b, short), options);
    // The post of ten days ago goes too; the poll of a day ago is not past a day yet, and
    // the newest run of each job stays whatever its age.
    expect(s.deleted).toMatchObject({ outbox: 5, pollObservations: 1, jobRuns: 2, auditLog: 3 });
    expect(await counts(b)).toMatchObject({ outbox: 3, pollObservations: 1, jobRuns: 2, auditLog: 0 });
  });

  it('does nothing to a database with nothing past its retention', async () => {
    const b = backend();
    await outboxRow(b, 'sent', ago(2), ago(1));
    const s = await runHousekeeping(depsOn(b), options);
    expect(s).toMatchObject({ status: 'ok', deleted: { outbox: 0, auditLog: 0, jobRuns: 0 } });
    expect((await counts(b)).outbox).toBe(1);
  });

  it('skips, and says so, while another process holds its lease', async () => {
    const b = backend();
    await seed(b);
    await b
      .store({ clock: manualClock(NOW) })
      .jobRuns.acquireLease('housekeeping', 'serve:elsewhere:1', 60_000);
    const s = await runHousekeeping(depsOn(b), options);
    expect(s).toMatchObject({ status: 'skipped', detail: expect.stringContaining('serve:elsewhere:1') });
    expect((await counts(b)).outbox).toBe(8);
  });

  it('run by two replicas at once, deletes each row once and fails neither', async () => {
    const b = backend();
    await seed(b);
    const runs = await Promise.all(
      [b, b.other()].map((x, i) =>
        runHousekeeping(depsOn(x), { ...options, owner: `replica-${i}`, batchSize: 1 }),
      ),
    );
    expect(runs.map((r) => r.status).sort()).toEqual(expect.arrayContaining(['ok']));
    for (const r of runs) expect(['ok', 'skipped']).toContain(r.status);
    const total = (k: keyof (typeof runs)[0]['deleted']) => runs[0]!.deleted[k] + runs[1]!.deleted[k];
    expect([total('outbox'), total('jobRuns'), total('auditLog'), total('pollObservations')]).toEqual([
      4, 2, 2, 1,
    ]);
    expect(await counts(b)).toMatchObject({ outbox: 4, jobRuns: 2, auditLog: 1, pollObservations: 1 });
  });

  it('purges from two connections at once without the lease: every row deleted once', async () => {
    const b = backend();
    for (let i = 0; i < 40; i++) await outboxRow(b, 'sent', ago(200), ago(100));
    await outboxRow(b, 'pending', ago(200));
    const drain = async (x: TestBackend) => {
      const outbox = x.store().outbox({ owner: 'purge' });
      let total = 0;
      for (;;) {
        const n = await outbox.purgeFinished(ago(90), 3);
        total += n;
        if (n < 3) return total;
      }
    };
    const [one, two] = await Promise.all([drain(b), drain(b.other())]);
    expect(one + two).toBe(40);
    expect((await counts(b)).outbox).toBe(1);
  });
});

describe('housekeeping, stopped', () => {
  it('stops between batches when the process stops, and records that', async () => {
    // On SQLite only: the stop is the runner's, not the backend's.
    const dir = mkdtempSync(join(tmpdir(), 'housekeeping-'));
    const db = openDatabase(join(dir, 'v.db'));
    try {
      const clock = manualClock(NOW);
      const store = createSqliteStore(db, { clock, closesDatabase: false });
      for (let i = 0; i < 5; i++)
        await store.auditLog.record({ userId: 'U1', action: 'a', result: 'ok', atMs: ago(400) });
      const stop = new AbortController();
      const logger = captureLogger([]);
      // The process is told to stop while the first batch runs.
      const stopping = {
        ...store,
        auditLog: {
          ...store.auditLog,
          purgeBefore: async (cutoff: number, limit: number) => {
            const n = await store.auditLog.purgeBefore(cutoff, limit);
            stop.abort();
            return n;
          },
        },
      };
      const s = await runHousekeeping(
        { store: stopping, clock, logger, config: { retention: RETENTION } },
        { ...options, batchSize: 2, signal: stop.signal },
      );
      expect(s).toMatchObject({ status: 'aborted', deleted: { auditLog: 2 } });
      expect((await store.jobRuns.recent(1, 'housekeeping'))[0]).toMatchObject({ ok: false });
      expect(await store.jobRuns.getLease('housekeeping')).toBeNull();
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
