/**
 * The scheduler's ticks on pg-boss, for replicas sharing one Postgres database. Each
 * replica's node-cron would fire every tick once per replica; instead pg-boss schedules
 * the poll and digest ticks (the scheduler's cron patterns, in UTC): one cron pass per
 * interval across all replicas files one job per slot (pg-boss's send-it queue keeps a
 * singleton per schedule and minute), and one replica's worker takes it and calls the
 * Scheduler's tick. What a tick then runs is still decided by the clock and the store (job
 * schedule, job runs, job leases), so a tick is a cheap, idempotent "run what is due now".
 *
 * - Resolution: pg-boss cron slots are one minute wide, so a seconds pattern (node-cron's
 *   six fields) fires once a minute here. The default patterns are minutes anyway.
 * - A replica that dies mid-tick stops its heartbeat; after `heartbeatSeconds` the
 *   supervisor of any live replica fails the job and it is retried (`retryLimit`,
 *   `retryDelaySeconds`) by a replica that is alive. `expireInSeconds` only bounds a tick
 *   that is alive but stuck, so it is long: a poll over 1,500 brands at the key's pace runs
 *   for half an hour, heartbeating all along.
 * - Queue policy 'stately': at most one tick of a kind active (never two at once across
 *   replicas) and at most one waiting. 'singleton' would also keep one active but queue
 *   every slot that passes during a long tick, each replayed afterwards for nothing; a tick
 *   asks what is due now, so one waiting tick covers every slot it stood for (node-cron's
 *   noOverlap skips them the same way).
 * - Missed slots while every replica was down are not replayed ('skip'): the scheduler's
 *   catch-up tick at start covers them.
 * - stop() is graceful: no new tick is fetched, the running one finishes (up to
 *   `stopTimeoutMs`, then pg-boss fails it and another replica retries it), and pg-boss's
 *   pool ends. Stop it before the scheduler, whose stopped ticks return at once and would
 *   be recorded as done: createReplicatedScheduler keeps that order.
 *
 * The connection string holds the database password: it is never logged, and pg-boss's
 * errors and warnings are logged with it cut out. While the database cannot be used,
 * pg-boss's workers fail every poll and resume by themselves once it answers: those
 * errors are logged at debug (the outage itself is logged once, by database-health.ts).
 */
import { PgBoss, type Clock as PgBossClock, type Queue } from 'pg-boss';
import type { Logger } from '../logger.js';
import { isDatabaseUnavailable } from '../store/database-unavailable.js';
import { connectionSecretScrubber, scrubbedError } from './connection-secret-scrubber.js';
import type { Scheduler } from './scheduler.js';
import { SerialPgClient } from './serial-pg-client.js';

/** The two ticks the engine fires: a Scheduler's, or a test's. */
export type TickFunctions = Pick<Scheduler, 'pollTick' | 'digestTick'>;

export interface PgBossTicksOptions {
  /** Cron patterns (UTC), as the scheduler's tickPatterns() gives them. */
  patterns: { poll: string; digest: string };
  logger: Logger;
  /** pg-boss's own schema; default `visibility_boss`. */
  schema?: string;
  /** Names this replica in pg-boss's instance registry (e.g. the scheduler's owner). */
  instanceName?: string;
  /** Connections of pg-boss's own pool; default 4. */
  maxConnections?: number;
  /** A tick's heartbeat; silent this long (a dead replica), it is retried elsewhere. Default 30, at least 10. */
  heartbeatSeconds?: number;
  /** Upper bound of one tick, heartbeat or not; default 6 hours. */
  expireInSeconds?: number;
  /** Retries of a tick that failed, expired or lost its heartbeat; default 3. */
  retryLimit?: number;
  /** Seconds before such a retry; default 5. */
  retryDelaySeconds?: number;
  /** How often an idle worker asks for a tick; default 2 s, at least 0.5. */
  pollingIntervalSeconds?: number;
  /** How often the supervisor looks for dead ticks (expiry, heartbeat); default 10 s. */
  superviseIntervalSeconds?: number;
  /** How often pg-boss's cron pass runs (one replica per interval); default 30, 1 to 45. */
  cronMonitorIntervalSeconds?: number;
  /** How often scheduled slots are turned into tick jobs; default 5, 1 to 45. */
  cronWorkerIntervalSeconds?: number;
  /** How long stop() waits for a running tick; default 60 000 ms. */
  stopTimeoutMs?: number;
  /** pg-boss's time source (tests pass pg-boss's TestClock); default the system clock. */
  clock?: PgBossClock;
}

export interface PgBossTicks {
  /** Migrates pg-boss's schema (pg-boss locks its own migrations), creates the queues, schedules and works the ticks. */
  start(): Promise<void>;
  /** Graceful: waits for the running tick, then ends pg-boss's pool. */
  stop(): Promise<void>;
}

/** Queue names; the schedule of each queue is keyed by its name. */
export const TICK_QUEUES = { poll: 'visibility-poll-tick', digest: 'visibility-digest-tick' } as const;

type PgBossTicksErrorCode = 'ticks_start_failed';

export class PgBossTicksError extends Error {
  readonly code: PgBossTicksErrorCode;
  constructor(code: PgBossTicksErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PgBossTicksError';
    this.code = code;
  }
}

const DEFAULTS = {
  schema: 'visibility_boss',
  maxConnections: 4,
  heartbeatSeconds: 30,
  expireInSeconds: 6 * 3600,
  retryLimit: 3,
  retryDelaySeconds: 5,
  pollingIntervalSeconds: 2,
  superviseIntervalSeconds: 10,
  stopTimeoutMs: 60_000,
};

/**
 * pg-boss hands its options to its pg.Pool, which takes the class of its connections: ones
 * that run one statement at a time (serial-pg-client.ts says why). Not in pg-boss's types.
 */
const oneStatementAtATime = { Client: SerialPgClient };

/**
 * How pg-boss's 'error' events are logged, the password cut out: an outage of the database
 * at debug (its workers fail every poll meanwhile, and the outage is logged once by
 * database-health.ts), anything else as an error.
 */
export function jobEngineErrorLogger(
  logger: Pick<Logger, 'debug' | 'error'>,
  scrub: (text: string) => string,
): (err: unknown) => void {
  return (err) => {
    const e = scrubbedError(err, scrub);
    if (isDatabaseUnavailable(err)) logger.debug({ err: e }, 'job engine: the database cannot be used');
    else logger.error({ err: e }, 'job engine error');
  };
}

type TickSettings = typeof DEFAULTS & Partial<PgBossTicksOptions>;

/** One tick kind: its queue, its cron pattern and the scheduler function it runs. */
interface TickKind {
  kind: 'poll' | 'digest';
  name: string;
  cron: string;
  tick: () => Promise<void>;
}

export function createPgBossTicks(
  connectionString: string,
  ticks: TickFunctions,
  options: PgBossTicksOptions,
): PgBossTicks {
  const o: TickSettings = { ...DEFAULTS, ...definedOnly(options) };
  const logger = options.logger.child({ component: 'ticks' });
  const scrub = connectionSecretScrubber(connectionString);
  const boss = createTickBoss(connectionString, o, logger, scrub);
  const kinds: TickKind[] = [
    { kind: 'poll', name: TICK_QUEUES.poll, cron: options.patterns.poll, tick: () => ticks.pollTick() },
    {
      kind: 'digest',
      name: TICK_QUEUES.digest,
      cron: options.patterns.digest,
      tick: () => ticks.digestTick(),
    },
  ];

  let started = false;
  return {
    async start() {
      if (started) return;
      started = true;
      try {
        await boss.start();
        for (const k of kinds) await scheduleTick(boss, k, o, logger);
      } catch (err) {
        started = false;
        await boss.stop({ graceful: false, close: true }).catch(() => {});
        const reason = scrub(err instanceof Error ? err.message : String(err));
        throw new PgBossTicksError(
          'ticks_start_failed',
          `The job engine (pg-boss) did not start: ${reason}`,
          {
            cause: scrubbedError(err, scrub),
          },
        );
      }
      logger.info({ schema: o.schema, patterns: options.patterns }, 'ticks scheduled on pg-boss');
    },
    async stop() {
      if (!started) return;
      started = false;
      await boss.stop({ graceful: true, close: true, timeout: o.stopTimeoutMs });
      logger.info('ticks stopped');
    },
  };
}

/** The pg-boss instance of the ticks, not started, its events logged with the password cut out. */
function createTickBoss(
  connectionString: string,
  o: TickSettings,
  logger: Logger,
  scrub: (text: string) => string,
): PgBoss {
  const supervise = o.superviseIntervalSeconds;
  const boss = new PgBoss({
    connectionString,
    schema: o.schema,
    max: o.maxConnections,
    application_name: 'visibility-bot-ticks',
    ...oneStatementAtATime,
    // pg waits forever for a connection by default: a start (and the shutdown waiting on
    // it) must not hang on a database that does not answer.
    connectionTimeoutMillis: 10_000,
    ...(o.instanceName ? { instanceName: o.instanceName } : {}),
    ...(o.clock ? { clock: o.clock } : {}),
    // Expiry and heartbeat checks run in the supervise pass, which claims each queue for one
    // replica per monitor interval: both at the same period.
    superviseIntervalSeconds: supervise,
    monitorIntervalSeconds: supervise,
    ...(o.cronMonitorIntervalSeconds ? { cronMonitorIntervalSeconds: o.cronMonitorIntervalSeconds } : {}),
    ...(o.cronWorkerIntervalSeconds ? { cronWorkerIntervalSeconds: o.cronWorkerIntervalSeconds } : {}),
  });
  boss.on('error', jobEngineErrorLogger(logger, scrub));
  boss.on('warning', (w) =>
    logger.warn({ detail: scrub(JSON.stringify(w.data ?? {})) }, scrub(`job engine: ${w.message}`)),
  );
  return boss;
}

/**
 * The tick's queue (created, or its knobs carried over), its cron schedule, and the worker
 * that runs it: one tick at a time per replica, a failed tick thrown on so pg-boss retries it.
 */
async function scheduleTick(boss: PgBoss, k: TickKind, o: TickSettings, logger: Logger): Promise<void> {
  const queue: Omit<Queue, 'name'> = {
    policy: 'stately',
    heartbeatSeconds: o.heartbeatSeconds,
    expireInSeconds: o.expireInSeconds,
    retryLimit: o.retryLimit,
    retryDelay: o.retryDelaySeconds,
    // A tick's job row is worth a day for operators reading the queue, no more.
    deleteAfterSeconds: 24 * 3600,
  };
  await boss.createQueue(k.name, queue);
  // createQueue keeps an existing queue as it was: carry changed knobs over (the policy is fixed at creation).
  const { policy: _policy, ...changeable } = queue;
  await boss.updateQueue(k.name, changeable);
  await boss.schedule(k.name, k.cron, null, { tz: 'UTC', missed: 'skip' });
  await boss.work(
    k.name,
    { pollingIntervalSeconds: o.pollingIntervalSeconds, batchSize: 1, localConcurrency: 1 },
    async ([job]) => {
      if (!job) return;
      const about = { tick: k.kind, job: job.id, attempt: job.retryCount + 1 };
      // A retry: the attempt before failed, or its replica died or stopped mid-tick.
      if (job.retryCount > 0)
        logger.info(about, 'running a tick again that an earlier attempt did not finish');
      else logger.debug(about, 'tick');
      try {
        await k.tick();
      } catch (err) {
        // Thrown on, so pg-boss retries the tick (retryLimit, retryDelaySeconds).
        logger.warn({ ...about, err }, 'tick failed');
        throw err;
      }
    },
  );
}

/** The options the caller set, so an explicit `undefined` keeps the default. */
function definedOnly<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as Partial<T>;
}
