/**
 * The scheduler's ticks on pg-boss, on a real Postgres: replicas share one database and one
 * pg-boss TestClock, which drives every pg-boss timer (cron pass, workers, heartbeats,
 * supervisor) and the time its SQL reads (job_now()), so minutes of cron slots pass in
 * well under a second of work each and nothing races real time. pg-boss's cron slots are a
 * minute wide and its cron pass runs at most every second, so virtual minutes are the only
 * way through several slots in a test.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { TestClock } from 'pg-boss';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createPgBossTicks,
  type PgBossTicks,
  PgBossTicksError,
  TICK_QUEUES,
  type TickFunctions,
} from '../../src/jobs/pg-boss-ticks.js';
import { tickPatterns } from '../../src/jobs/scheduler.js';
import { usePostgresDatabase } from '../helpers/postgres-database.js';

const database = usePostgresDatabase();
const MINUTE = 60_000;

interface TickRecord {
  replica: string;
  kind: 'poll' | 'digest';
  atMs: number;
}

/** Ticks of every replica in the order they started, with how many ran at once per kind. */
function tickLog(clock: TestClock) {
  const records: TickRecord[] = [];
  /** What happened, in order: each tick's end, and whatever the test adds. */
  const events: string[] = [];
  const active = { poll: 0, digest: 0 };
  const maxActive = { poll: 0, digest: 0 };
  let gate: Promise<void> | null = null;
  return {
    records,
    events,
    maxActive,
    /** While held, every tick that starts waits for release(). */
    hold() {
      let release = () => {};
      gate = new Promise((r) => {
        release = r;
      });
      return () => {
        gate = null;
        release();
      };
    },
    functionsOf(replica: string) {
      const run = async (kind: 'poll' | 'digest') => {
        active[kind] += 1;
        maxActive[kind] = Math.max(maxActive[kind], active[kind]);
        records.push({ replica, kind, atMs: clock.now() });
        try {
          if (gate) await gate;
        } finally {
          active[kind] -= 1;
          events.push(`${kind} tick ended`);
        }
      };
      return { pollTick: () => run('poll'), digestTick: () => run('digest') };
    },
  };
}

const lines: Array<Record<string, unknown>> = [];
const logger = pino({ level: 'debug' }, { write: (l: string) => void lines.push(JSON.parse(l)) });
const started: PgBossTicks[] = [];

let child: ChildProcess | undefined;
const REPLICA = fileURLToPath(new URL('./fixtures/pg-boss-ticks-replica.ts', import.meta.url));

afterEach(async () => {
  child?.kill('SIGKILL');
  child = undefined;
  await Promise.all(started.splice(0).map((t) => t.stop()));
  lines.length = 0;
});

let schemaSeq = 0;
let schema = '';
beforeEach(() => {
  // pg-boss's own schema per test: no test sees another's jobs or schedules.
  schema = `ticks_test_${++schemaSeq}`;
});

function replica(
  name: string,
  clock: TestClock,
  ticks: TickFunctions,
  digestCron = '*/2 * * * *',
  stopTimeoutMs = 10_000,
): PgBossTicks {
  const t = createPgBossTicks(database.url, ticks, {
    patterns: tickPatterns({ digestCron }),
    schema,
    stopTimeoutMs,
    logger: logger.child({ replica: name }),
    instanceName: name,
    clock,
    maxConnections: 3,
    // Each slot's tick lands within 10 + 1 + 5 + 5 s of its minute, so a tick's virtual time
    // names its slot; fewer timers per virtual minute keep the test quick.
    pollingIntervalSeconds: 5,
    cronMonitorIntervalSeconds: 10,
    cronWorkerIntervalSeconds: 5,
    superviseIntervalSeconds: 5,
    heartbeatSeconds: 10,
    retryDelaySeconds: 1,
  });
  started.push(t);
  return t;
}

/**
 * One after another: replicas sharing a TestClock each install its clock table at start,
 * which is not safe to race (real replicas have no such table).
 */
async function startAll(replicas: PgBossTicks[]): Promise<void> {
  for (const r of replicas) await r.start();
}

/** Moves virtual time a second at a time, letting pg-boss finish each second's work. */
async function advance(clock: TestClock, ms: number): Promise<void> {
  for (let done = 0; done < ms; done += 1000) await clock.tick(Math.min(1000, ms - done));
}

async function bossConnections(): Promise<number> {
  const pool = database.pool({ max: 1 });
  const { rows } = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND application_name = 'visibility-bot-ticks'`,
  );
  return rows[0]!.n;
}

describe('ticks on pg-boss across replicas', () => {
  it('three replicas run each slot’s tick exactly once between them, one at a time, also after one stops', async () => {
    // Half a minute into a minute: the first cron pass files this minute's slot at once.
    const clock = new TestClock(Date.parse('2026-03-02T10:00:30Z'));
    const log = tickLog(clock);
    const replicas = ['a', 'b', 'c'].map((n) => replica(n, clock, log.functionsOf(n)));
    await startAll(replicas);

    await advance(clock, 3 * MINUTE);
    await expect.poll(() => log.records.filter((r) => r.kind === 'poll').length, { timeout: 10_000 }).toBe(4);
    // The replica that took the ticks so far leaves (a rolling deploy); the others go on.
    const busiest = log.records[0]!.replica;
    await replicas[['a', 'b', 'c'].indexOf(busiest)]!.stop();
    const leftAt = log.records.length;
    await advance(clock, 3 * MINUTE);

    const minutes = [0, 1, 2, 3, 4, 5, 6].map((m) => Date.parse('2026-03-02T10:00:00Z') + m * MINUTE);
    await expect
      .poll(() => log.records.filter((r) => r.kind === 'poll').length, { timeout: 10_000 })
      .toBe(minutes.length);
    const slotsOf = (kind: 'poll' | 'digest') =>
      log.records.filter((r) => r.kind === kind).map((r) => Math.floor(r.atMs / MINUTE) * MINUTE);
    // One poll tick in every minute slot, and every slot had one.
    expect(slotsOf('poll')).toEqual(minutes);
    // The digest's */2 slots: 10:00, 10:02, 10:04, 10:06.
    expect(slotsOf('digest')).toEqual([minutes[0], minutes[2], minutes[4], minutes[6]]);
    expect(log.maxActive).toEqual({ poll: 1, digest: 1 });
    expect(log.records.slice(leftAt).every((r) => r.replica !== busiest)).toBe(true);
    expect(lines.filter((l) => Number(l['level']) >= 50)).toEqual([]);
  }, 90_000);

  it('while a long tick runs, no replica starts another; one waiting tick covers the slots it missed', async () => {
    // Early in a minute, so every step below stays inside 11:00-11:03.
    const clock = new TestClock(Date.parse('2026-03-02T11:00:05Z'));
    const log = tickLog(clock);
    const replicas = ['a', 'b', 'c'].map((n) => replica(n, clock, log.functionsOf(n), '0 0 1 1 *'));
    const release = log.hold();
    await startAll(replicas);
    await advance(clock, 15_000);
    await expect.poll(() => log.records.length, { timeout: 10_000 }).toBe(1);

    // Three more slots pass while the first tick holds on, heartbeating: no other tick starts,
    // and the live tick is not taken for dead.
    await advance(clock, 3 * MINUTE);
    expect(log.records).toHaveLength(1);
    expect(log.maxActive.poll).toBe(1);

    release();
    await advance(clock, 15_000);
    // The one tick waiting (stately: one queued at most) runs; the other slots were dropped.
    await expect.poll(() => log.records.length, { timeout: 10_000 }).toBe(2);
    await advance(clock, 15_000);
    expect(log.records).toHaveLength(2);
    expect(log.maxActive.poll).toBe(1);
    expect(
      lines.some((l) => l['msg'] === 'running a tick again that an earlier attempt did not finish'),
    ).toBe(false);
    // The slots refused while one tick waited are not errors.
    expect(lines.filter((l) => Number(l['level']) >= 50)).toEqual([]);
  }, 60_000);

  it('stop() waits for the running tick, completes it and closes every pg-boss connection', async () => {
    const clock = new TestClock(Date.parse('2026-03-02T12:00:30Z'));
    const log = tickLog(clock);
    const ticks = replica('solo', clock, log.functionsOf('solo'), '0 0 1 1 *');
    const release = log.hold();
    await ticks.start();
    await advance(clock, 15_000);
    await expect.poll(() => log.records.length, { timeout: 10_000 }).toBe(1);
    expect(await bossConnections()).toBeGreaterThan(0);

    // pg-boss has been told to stop (stop() calls it before its first await); the tick is
    // let go only then, and stop() resolves only after it ended.
    const stopping = ticks.stop().then(() => log.events.push('stopped'));
    expect(log.events).toEqual([]);
    release();
    await stopping;
    expect(log.events).toEqual(['poll tick ended', 'stopped']);
    started.splice(0);

    await expect.poll(() => bossConnections(), { timeout: 5000 }).toBe(0);
    const pool = database.pool({ max: 1 });
    const { rows } = await pool.query<{ state: string }>(`SELECT state FROM ${schema}.job WHERE name = $1`, [
      TICK_QUEUES.poll,
    ]);
    expect(rows.map((r) => r.state)).toEqual(['completed']);
    expect(lines.some((l) => l['msg'] === 'ticks stopped')).toBe(true);
  }, 30_000);

  it('stop() gives a tick that does not end its whole grace, then fails it for a retry', async () => {
    const clock = new TestClock(Date.parse('2026-03-02T12:00:30Z'));
    const log = tickLog(clock);
    // pg-boss's shortest grace; its timer is real time (a stop must not hang on a test clock).
    const ticks = replica('solo', clock, log.functionsOf('solo'), '0 0 1 1 *', 1000);
    const release = log.hold();
    await ticks.start();
    await advance(clock, 15_000);
    await expect.poll(() => log.records.length, { timeout: 10_000 }).toBe(1);

    const began = performance.now();
    await ticks.stop();
    started.splice(0);
    // A lower bound only: a stop that did not wait would have returned before the grace ran out.
    expect(performance.now() - began).toBeGreaterThanOrEqual(900);
    expect(log.events).toEqual([]);
    const pool = database.pool({ max: 1 });
    const { rows } = await pool.query<{ state: string }>(`SELECT state FROM ${schema}.job WHERE name = $1`, [
      TICK_QUEUES.poll,
    ]);
    expect(rows.map((r) => r.state)).toEqual(['retry']);
    release();
  }, 30_000);

  it('a replica killed mid-tick: another runs that slot’s tick once the heartbeat stops', async () => {
    child = spawn(process.execPath, ['--import', 'tsx', REPLICA, database.url, schema], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (d) => {
      stderr += String(d);
    });
    const exited = once(child, 'exit');
    let tickJob: string | undefined;
    for await (const line of createInterface({ input: child.stdout! })) {
      const entry = JSON.parse(line) as Record<string, unknown>;
      if (entry['msg'] === 'tick' && entry['tick'] === 'poll') {
        tickJob = String(entry['job']);
        break;
      }
    }
    expect(tickJob, stderr).toBeDefined();
    child.kill('SIGKILL');
    await exited;
    child = undefined;

    // The survivor's virtual time starts now: the dead replica's last heartbeat is behind it.
    const clock = new TestClock(Date.now());
    const log = tickLog(clock);
    await replica('survivor', clock, log.functionsOf('survivor'), '0 0 1 1 *').start();
    // Heartbeat 10 s, supervise 5 s, retry delay 1 s, polling 5 s: well inside 40 s.
    await advance(clock, 40_000);
    const takenOver = () =>
      lines
        .filter((l) => l['msg'] === 'running a tick again that an earlier attempt did not finish')
        .map((l) => l['job']);
    await expect.poll(takenOver, { timeout: 10_000 }).toContain(tickJob);
    expect(log.records.some((r) => r.kind === 'poll' && r.replica === 'survivor')).toBe(true);

    const pool = database.pool({ max: 1 });
    const { rows } = await pool.query<{ state: string; retry_count: number }>(
      `SELECT state, retry_count FROM ${schema}.job WHERE id = $1`,
      [tickJob],
    );
    expect(rows).toEqual([{ state: 'completed', retry_count: 1 }]);
  }, 60_000);

  it('a tick that fails is retried, on this replica or another, and then done', async () => {
    const clock = new TestClock(Date.parse('2026-03-02T13:00:05Z'));
    const attempts: string[] = [];
    const flaky = (name: string) => ({
      pollTick: async () => {
        attempts.push(name);
        if (attempts.length === 1) throw new Error('the database went away for a moment');
      },
      digestTick: async () => {},
    });
    const engines = ['a', 'b'].map((n) => replica(n, clock, flaky(n), '0 0 1 1 *'));
    await startAll(engines);
    // The slot's tick at once, its retry a second after it failed: well inside 30 s.
    await advance(clock, 30_000);
    await expect.poll(() => attempts.length, { timeout: 10_000 }).toBe(2);
    await advance(clock, 15_000);
    expect(attempts).toHaveLength(2);
    expect(lines.filter((l) => l['msg'] === 'tick failed')).toHaveLength(1);
    expect(
      lines.filter((l) => l['msg'] === 'running a tick again that an earlier attempt did not finish'),
    ).toHaveLength(1);
    const pool = database.pool({ max: 1 });
    const { rows } = await pool.query<{ state: string; retry_count: number }>(
      `SELECT state, retry_count FROM ${schema}.job WHERE name = $1`,
      [TICK_QUEUES.poll],
    );
    expect(rows).toEqual([{ state: 'completed', retry_count: 1 }]);
  }, 60_000);

  it('replicas starting together install pg-boss’s schema once and all start', async () => {
    const idle = { pollTick: async () => {}, digestTick: async () => {} };
    const replicas = ['a', 'b', 'c'].map((n) =>
      createPgBossTicks(database.url, idle, {
        patterns: tickPatterns(),
        logger: logger.child({ replica: n }),
        schema,
        instanceName: n,
      }),
    );
    started.push(...replicas);
    await Promise.all(replicas.map((r) => r.start()));
    const pool = database.pool({ max: 1 });
    const { rows } = await pool.query<{ name: string; policy: string }>(
      `SELECT name, policy FROM ${schema}.queue WHERE name LIKE 'visibility-%' ORDER BY name`,
    );
    expect(rows).toEqual([
      { name: TICK_QUEUES.digest, policy: 'stately' },
      { name: TICK_QUEUES.poll, policy: 'stately' },
    ]);
    const schedules = await pool.query<{ name: string; cron: string; timezone: string }>(
      `SELECT name, cron, timezone FROM ${schema}.schedule ORDER BY name`,
    );
    expect(schedules.rows).toEqual([
      { name: TICK_QUEUES.digest, cron: '*/5 * * * *', timezone: 'UTC' },
      { name: TICK_QUEUES.poll, cron: '* * * * *', timezone: 'UTC' },
    ]);
    expect(lines.filter((l) => Number(l['level']) >= 50)).toEqual([]);
  });

  it('a database it cannot reach fails start() with a code, and the password appears nowhere', async () => {
    const url = new URL(database.url);
    url.username = 'nobody';
    url.password = 'pw-Xq7_secret';
    const ticks = createPgBossTicks(
      url.toString(),
      { pollTick: async () => {}, digestTick: async () => {} },
      { patterns: tickPatterns(), logger },
    );
    const err = await ticks.start().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(PgBossTicksError);
    expect((err as PgBossTicksError).code).toBe('ticks_start_failed');
    expect(String((err as Error).message)).toMatch(/did not start/);
    const everything = `${(err as Error).message} ${(err as Error).stack} ${JSON.stringify(lines)}`;
    expect(everything).not.toContain('pw-Xq7_secret');
    expect(await bossConnections()).toBe(0);
  });
});
