/**
 * The API key's rate limiter (DESIGN.md "one key, one budget"). Correctness lives in
 * SQLite: every grant is a short BEGIN IMMEDIATE transaction over the key's token bucket,
 * the endpoint's sliding window, pauses and the daily count, so every process and every
 * limiter on the database file shares one budget. In-process, one dispatcher loop hands
 * grants out in lane order (interactive before background; interactive by the arrival of
 * the person's request, background FIFO) and sleeps exactly until the earliest waiter
 * could go, or until a new waiter arrives.
 *
 * Across processes there is no shared queue, so the background lane keeps headroom: it
 * takes a token only while the shared bucket holds more than the interactive reserve (one
 * token, more while people's calls have been arriving in bursts: interactive-reserve.ts)
 * and a window slot only while two are free. That costs a few tokens of burst, not
 * throughput: background still drains at the refill rate. Every lane also leaves the
 * safety margin (safety-margin.ts): what the service's bucket may lag behind ours.
 *
 * p-throttle is not used here: it reads Date.now() and setTimeout (no Clock seam), counts
 * in-process only, has no lanes, and aborts only all its calls at once. The shared sliding
 * window already gives what an in-process smoother would; bench/limiter.ts compares it.
 */
import type Database from 'better-sqlite3';
import { type Clock, systemClock } from '../../clock.js';
import type { Logger } from '../../logger.js';
import { type EndpointKey, endpointKeys } from '../endpoint-table.js';
import { QuotaExhaustedError } from '../errors.js';
import { PLAN_LIMITS, type PlanLimits, type PlanName } from '../plans.js';
import { abortedWhileWaiting } from './aborted-while-waiting.js';
import { type EndpointScope, endpointScope } from './endpoint-scope.js';
import { InteractiveReserve } from './interactive-reserve.js';
import { LaneQueue } from './lane-queue.js';
import { OwnGrants } from './own-grants.js';
import { type ReactionContext, reactToResponse } from './react-to-response.js';
import { SafetyMargin } from './safety-margin.js';
import { SharedBucketStore } from './shared-bucket-store.js';
import type { Lane, LimiterState, RateLimiter, RateLimitObservation } from './types.js';

export { unlimitedLimiter } from './unlimited-limiter.js';

export interface RateLimiterOptions {
  /** Shared SQLite (better-sqlite3): one budget for every process using the key. */
  db: Database.Database;
  /** Hash of the API key (never the key). */
  keyHash: string;
  plan: PlanName;
  /** Overrides the plan's limits (tests and the benchmark compress them). */
  limits?: Partial<PlanLimits>;
  /** Overrides every endpoint's per-minute limit; null = no per-endpoint limit (tests). */
  endpointPerMinute?: number | null;
  /** Length of "a minute"; default 60000. Compressed in tests. */
  windowMs?: number;
  clock?: Clock;
  /** Jitter source, [0, 1). */
  random?: () => number;
  /** Pause after a 429 with no Retry-After and no delay in its text; default 60000 (DESIGN.md). */
  defaultRetryAfterMs?: number;
  /** Jitter added to a 429 pause, so processes do not resume in step; default 1000. */
  maxJitterMs?: number;
  /** Longest sleep before a waiter re-reads the shared state; default 1000. */
  pollMs?: number;
  logger?: Logger;
}

/** Window slots the background lane leaves for interactive callers (tokens: InteractiveReserve). */
const BACKGROUND_RESERVE = 1;
/** A burst of interactive calls keeps its reserve this many windows (10 min on Scale). */
const RESERVE_SPAN_WINDOWS = 10;
/** Longer than this is a timeout or a lost response, not a latency to pace around. */
const MAX_LATENCY_MS = 5_000;
/** What 429s add to the safety margin never exceeds this share of the burst. */
const MAX_MARGIN_SHARE = 0.25;
/** What one 429 adds to the margin, as a share of the burst. */
const MARGIN_STEP_SHARE = 0.05;

interface Waiter extends EndpointScope {
  readonly lane: Lane;
  readonly enqueuedAt: number;
  readonly rank: number;
  resolve(): void;
  reject(error: unknown): void;
}

export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const clock = options.clock ?? systemClock;
  const windowMs = options.windowMs ?? 60_000;
  const pollMs = options.pollMs ?? 1000;
  const logger = options.logger;
  const limits: PlanLimits = { ...PLAN_LIMITS[options.plan], ...options.limits };
  const store = new SharedBucketStore(options.db, options.keyHash, {
    capacity: limits.burst,
    refillPerMs: limits.perMinute / windowMs,
    perDay: limits.perDay,
    windowMs,
  });
  const scopeOf = (endpoint: EndpointKey) => endpointScope(endpoint, options.endpointPerMinute);
  /** Tokens kept back for grant-to-arrival jitter and after 429s (this process's own view). */
  const margin = new SafetyMargin({
    refillPerMs: limits.perMinute / windowMs,
    penaltySpanMs: windowMs,
    maxTokens: limits.burst * MAX_MARGIN_SHARE,
    stepTokens: Math.max(1, limits.burst * MARGIN_STEP_SHARE),
    maxLatencyMs: MAX_LATENCY_MS,
  });
  const ownGrants = new OwnGrants(MAX_LATENCY_MS);
  const reaction: ReactionContext = {
    store,
    limits,
    windowMs,
    defaultRetryAfterMs: options.defaultRetryAfterMs ?? 60_000,
    maxJitterMs: options.maxJitterMs ?? 1000,
    random: options.random ?? Math.random,
    logger,
    answered: (now) => {
      const grant = ownGrants.answered(now);
      if (grant) margin.answered(grant.grantedAtMs, now);
      return grant;
    },
    marginTokens: (now) => margin.tokens(now),
    recordKey429: (now) => margin.record429(now),
  };

  const reserve = new InteractiveReserve({
    togetherMs: windowMs / limits.perMinute,
    spanMs: windowMs * RESERVE_SPAN_WINDOWS,
    maxTokens: Math.max(1, limits.burst / 10),
  });
  const queue = new LaneQueue<Waiter>();
  const waitedMs: Record<Lane, number> = { interactive: 0, background: 0 };
  let rateLimitedCount = 0;
  let closed = false;
  let running = false;
  /** Aborting it cuts the dispatcher's sleep short: a waiter arrived or left. */
  let wake: AbortController | null = null;
  let quotaLoggedFor = 0;

  function pump(): void {
    if (running) {
      wake?.abort();
      return;
    }
    void dispatch();
  }

  async function dispatch(): Promise<void> {
    running = true;
    try {
      while (!closed && queue.size > 0) {
        const waitMs = grantOne();
        if (waitMs === 0) continue;
        wake = new AbortController();
        try {
          // The wait is computed from shared state that other processes can only make
          // stricter; pollMs bounds it anyway (clock steps, an operator clearing a pause).
          await clock.sleep(Math.max(1, Math.min(Math.ceil(waitMs), pollMs)), wake.signal);
        } catch {
          // Woken early: re-read the queue and the shared state.
        } finally {
          wake = null;
        }
      }
    } finally {
      running = false;
    }
  }

  /** Grants the first waiter that may go now (0), or returns how long until one may. */
  function grantOne(): number {
    const heads = queue.heads();
    const now = clock.now();
    const headroom = margin.tokens(now);
    const backgroundReserve = reserve.tokens(now);
    let result: ReturnType<SharedBucketStore['takeFirst']>;
    try {
      result = store.takeFirst(
        () => clock.now(),
        heads.map((w) => ({
          scope: w.scope,
          limit: w.limit,
          tokensLeft: (w.lane === 'background' ? backgroundReserve : 0) + headroom,
          slotsLeft: w.lane === 'background' ? BACKGROUND_RESERVE : 0,
        })),
      );
    } catch (error) {
      // The database failed (closed, locked past busy_timeout): nobody can be paced.
      for (const w of queue.drain()) w.reject(error);
      return 0;
    }
    // A full bucket (ours, so the service's too) wipes out any lag between the two, once
    // every request granted before has been answered: one still on its way has yet to be
    // counted by the service, which is then not as full as ours (a first answer slower
    // than the bucket takes to refill, e.g. a cold start on a loaded machine).
    if (
      result.kind !== 'quota' &&
      result.tokensBefore !== undefined &&
      result.tokensBefore >= limits.burst &&
      ownGrants.inFlight(now) === 0
    ) {
      margin.bucketFull();
    }
    if (result.kind === 'granted') {
      const waiter = heads[result.index]!;
      queue.remove(waiter);
      margin.granted(result.nowMs);
      ownGrants.granted(result.nowMs, result.tokensBefore - 1);
      waitedMs[waiter.lane] += result.nowMs - waiter.enqueuedAt;
      waiter.resolve();
      return 0;
    }
    if (result.kind === 'quota') {
      if (quotaLoggedFor !== result.resetAt) {
        quotaLoggedFor = result.resetAt;
        logger?.warn(
          { dailyLimit: limits.perDay, resetAt: new Date(result.resetAt).toISOString() },
          "The API key's daily request quota is spent; requests fail until it resets",
        );
      }
      for (const w of queue.drain()) w.reject(new QuotaExhaustedError(result.resetAt));
      return 0;
    }
    return result.waitMs;
  }

  function acquire(
    endpoint: EndpointKey,
    lane: Lane,
    signal?: AbortSignal,
    priority?: number,
  ): Promise<void> {
    if (closed) return Promise.reject(abortedWhileWaiting(undefined, 'The rate limiter is closed.'));
    if (signal?.aborted) return Promise.reject(abortedWhileWaiting(signal.reason));
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        if (!queue.remove(waiter)) return;
        reject(abortedWhileWaiting(signal?.reason));
        pump();
      };
      const enqueuedAt = clock.now();
      const waiter: Waiter = {
        ...scopeOf(endpoint),
        lane,
        enqueuedAt,
        rank: priority !== undefined && Number.isFinite(priority) ? priority : enqueuedAt,
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        reject: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      if (lane === 'interactive') reserve.arrived(enqueuedAt);
      queue.push(waiter);
      pump();
    });
  }

  function observe(endpoint: EndpointKey, o: RateLimitObservation): void {
    if (closed) return;
    if (o.status === 429) rateLimitedCount++;
    try {
      // One transaction: the other process sees the whole reaction to a response or none.
      store.atomically(() => reactToResponse(reaction, endpoint, scopeOf(endpoint), o, clock.now()));
    } catch (error) {
      // A response must never fail because its bookkeeping did (e.g. the database is busy).
      logger?.error({ err: error, endpoint }, 'The rate limiter could not record a response');
    }
    if (o.status === 429) pump();
  }

  function state(): LimiterState {
    const now = clock.now();
    const shared = store.snapshot(now);
    const endpointPauses: LimiterState['endpointPauses'] = {};
    for (const key of endpointKeys) {
      const until = shared.scopePauses.get(scopeOf(key).scope);
      if (until !== undefined) endpointPauses[key] = until;
    }
    return {
      plan: options.plan,
      tokens: shared.tokens,
      capacity: limits.burst,
      refillPerSecond: (limits.perMinute * 1000) / windowMs,
      usedToday: shared.usedToday,
      dailyLimit: limits.perDay,
      dailyResetAt: shared.dailyResetAt,
      keyPausedUntil: shared.keyPausedUntil,
      endpointPauses,
      lanes: {
        interactive: { queued: queue.count('interactive') },
        background: { queued: queue.count('background') },
      },
      waitedMs: { ...waitedMs },
      rateLimitedCount,
    };
  }

  function close(): void {
    if (closed) return;
    closed = true;
    for (const w of queue.drain()) w.reject(abortedWhileWaiting(undefined, 'The rate limiter is closed.'));
    wake?.abort();
  }

  return { acquire, observe, state, close };
}
