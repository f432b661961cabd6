/**
 * The API key's rate limiter (DESIGN.md "one key, one budget"). Correctness lives in the
 * budget's decisions (decide-take.ts, decide-reaction.ts: pure functions over the key's
 * token bucket, the endpoint's sliding window, pauses and the daily count), which the
 * budget store (budget-store.ts: SQLite, or Postgres for replicas) runs in one short
 * transaction under its lock, so every process and every limiter on the database shares
 * one budget. In-process, one dispatcher loop hands grants out in lane
 * order (interactive before background; interactive by the arrival of the person's
 * request, background FIFO) and sleeps exactly until the earliest waiter could go, or
 * until a new waiter arrives.
 *
 * The store is asynchronous; this process's operations on it (one grant decision at a
 * time, the reactions observe() queues without making the caller wait) run one after
 * another in the order issued. state() stays synchronous for metrics, /healthz and status:
 * it reports the budget as last read, and every decision and reaction reads it again.
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
import { type Clock, systemClock } from '../../clock.js';
import type { Logger } from '../../logger.js';
import { nextUtcMidnight } from '../../utc-days.js';
import type { EndpointKey } from '../endpoint-table.js';
import { QuotaExhaustedError } from '../errors.js';
import { PLAN_LIMITS, type PlanLimits, type PlanName } from '../plans.js';
import { abortedWhileWaiting } from './aborted-while-waiting.js';
import { BudgetReader } from './budget-reader.js';
import type { BudgetStore, BudgetStoreFactory, SharedSnapshot } from './budget-store.js';
import { type EndpointScope, endpointScope } from './endpoint-scope.js';
import { decideGrant, type GrantContext } from './grant-decision.js';
import { GrantLoop } from './grant-loop.js';
import { InteractiveReserve } from './interactive-reserve.js';
import { LaneQueue } from './lane-queue.js';
import { limiterState } from './limiter-state.js';
import { OwnGrants } from './own-grants.js';
import { type ReactionContext, reactionQuery, reactToResponse } from './react-to-response.js';
import { SafetyMargin } from './safety-margin.js';
import { SerialTurns } from './serial-turns.js';
import type { Lane, LimiterState, RateLimiter, RateLimitObservation } from './types.js';

export { unlimitedLimiter } from './unlimited-limiter.js';

export interface RateLimiterOptions {
  /**
   * Builds the key's shared budget (createSqliteBudgetStore, createPgBudgetStore): one
   * budget for every process using the key. The limiter closes what it builds.
   */
  budget: BudgetStoreFactory;
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

/** createRateLimiter's limiter: a RateLimiter whose store work can be awaited. */
export interface SharedRateLimiter extends RateLimiter {
  /**
   * Settles once every store operation issued so far (grants, reactions to responses) is
   * done and the store has been read again: state() then shows them, and what other
   * processes did before. For shutdown and tests.
   */
  settled(): Promise<void>;
  /** Rejects the waiters, lets the queued reactions finish, then closes the budget store. */
  close(): Promise<void>;
}

/** Tokens kept back for grant-to-arrival jitter and after 429s (this process's own view). */
function safetyMarginFor(limits: PlanLimits, windowMs: number): SafetyMargin {
  return new SafetyMargin({
    refillPerMs: limits.perMinute / windowMs,
    penaltySpanMs: windowMs,
    maxTokens: limits.burst * MAX_MARGIN_SHARE,
    stepTokens: Math.max(1, limits.burst * MARGIN_STEP_SHARE),
    maxLatencyMs: MAX_LATENCY_MS,
  });
}

/** What state() shows before the first read of the store: a full bucket, nothing used. */
function untouchedBudget(limits: PlanLimits, now: number): SharedSnapshot {
  return {
    tokens: limits.burst,
    usedToday: 0,
    dailyResetAt: nextUtcMidnight(now),
    keyPausedUntil: null,
    scopePauses: new Map(),
  };
}

/** A queued call: settles once, and stops listening to its abort signal when it does. */
function newWaiter(
  scope: EndpointScope,
  lane: Lane,
  enqueuedAt: number,
  priority: number | undefined,
  settle: {
    resolve(): void;
    reject(error: unknown): void;
    signal?: AbortSignal | undefined;
    onAbort(): void;
  },
): Waiter {
  const done = () => settle.signal?.removeEventListener('abort', settle.onAbort);
  return {
    ...scope,
    lane,
    enqueuedAt,
    rank: priority !== undefined && Number.isFinite(priority) ? priority : enqueuedAt,
    resolve: () => {
      done();
      settle.resolve();
    },
    reject: (error) => {
      done();
      settle.reject(error);
    },
  };
}

export function createRateLimiter(options: RateLimiterOptions): SharedRateLimiter {
  const clock = options.clock ?? systemClock;
  const windowMs = options.windowMs ?? 60_000;
  const pollMs = options.pollMs ?? 1000;
  const logger = options.logger;
  const limits: PlanLimits = { ...PLAN_LIMITS[options.plan], ...options.limits };
  const store: BudgetStore = options.budget(options.keyHash, {
    capacity: limits.burst,
    refillPerMs: limits.perMinute / windowMs,
    perDay: limits.perDay,
    windowMs,
  });
  const scopeOf = (endpoint: EndpointKey) => endpointScope(endpoint, options.endpointPerMinute);
  const margin = safetyMarginFor(limits, windowMs);
  const ownGrants = new OwnGrants(MAX_LATENCY_MS);
  const reaction: ReactionContext = {
    limits,
    windowMs,
    defaultRetryAfterMs: options.defaultRetryAfterMs ?? 60_000,
    maxJitterMs: options.maxJitterMs ?? 1000,
    random: options.random ?? Math.random,
    logger,
    recordKey429: (now) => margin.record429(now),
  };
  const reserve = new InteractiveReserve({
    togetherMs: windowMs / limits.perMinute,
    spanMs: windowMs * RESERVE_SPAN_WINDOWS,
    maxTokens: Math.max(1, limits.burst / 10),
  });
  const queue = new LaneQueue<Waiter>();
  const turns = new SerialTurns();
  const reader = new BudgetReader(store, clock, untouchedBudget(limits, clock.now()), logger);
  const grants: GrantContext = { store, clock, turns, margin, reserve, ownGrants, burst: limits.burst };
  const loop = new GrantLoop({ clock, pollMs, hasWaiters: () => queue.size > 0, grantOne });
  const waitedMs: Record<Lane, number> = { interactive: 0, background: 0 };
  let rateLimitedCount = 0;
  let closed = false;
  let quotaLoggedFor = 0;
  reader.refresh();

  /** Grants the first waiter that may go now (0), or returns how long until one may. */
  async function grantOne(): Promise<number> {
    const outcome = await decideGrant(grants, queue.heads());
    if (outcome.kind === 'failed') {
      for (const w of queue.drain()) w.reject(outcome.error);
      return 0;
    }
    reader.refresh();
    if (outcome.kind === 'wait') return outcome.waitMs;
    if (outcome.kind === 'quota') {
      quotaSpent(outcome.resetAt);
      return 0;
    }
    const { waiter, nowMs } = outcome;
    // A waiter that left (aborted, closed) while the store decided: its grant is spent and
    // counted, only unused. Counting a send that never happens errs on the safe side.
    if (!queue.remove(waiter)) return 0;
    waitedMs[waiter.lane] += nowMs - waiter.enqueuedAt;
    waiter.resolve();
    return 0;
  }

  function quotaSpent(resetAt: number): void {
    if (quotaLoggedFor !== resetAt) {
      quotaLoggedFor = resetAt;
      logger?.warn(
        { dailyLimit: limits.perDay, resetAt: new Date(resetAt).toISOString() },
        "The API key's daily request quota is spent; requests fail until it resets",
      );
    }
    for (const w of queue.drain()) w.reject(new QuotaExhaustedError(resetAt));
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
        loop.pump();
      };
      const enqueuedAt = clock.now();
      const waiter = newWaiter(scopeOf(endpoint), lane, enqueuedAt, priority, {
        resolve,
        reject,
        signal,
        onAbort,
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      if (lane === 'interactive') reserve.arrived(enqueuedAt);
      queue.push(waiter);
      loop.pump();
    });
  }

  /**
   * Never blocks the caller: what this process knows (its own grant the response answers,
   * the margin) is taken now, the store's part is queued in turn with the grant decisions.
   */
  function observe(endpoint: EndpointKey, o: RateLimitObservation): void {
    if (closed) return;
    if (o.status === 429) rateLimitedCount++;
    const now = clock.now();
    const own = ownGrants.answered(now);
    if (own) margin.answered(own.grantedAtMs, now);
    const view = { own, marginTokens: margin.tokens(now) };
    const window = scopeOf(endpoint);
    turns
      .run(() =>
        // One transaction: the other process sees the whole reaction to a response or none.
        store.react(reactionQuery(reaction, window, o, now), (facts) =>
          reactToResponse(reaction, endpoint, window, o, now, view, facts),
        ),
      )
      .then(
        () => {
          reader.refresh();
          if (o.status === 429) loop.pump();
        },
        (error: unknown) => {
          // A response must never fail because its bookkeeping did (e.g. the database is busy).
          logger?.error({ err: error, endpoint }, 'The rate limiter could not record a response');
        },
      );
  }

  /**
   * Synchronous for metrics, /healthz and status: the shared budget as last read, which
   * every decision and reaction of this process refreshes; a read older than pollMs (other
   * processes may have spent meanwhile) starts another for the next caller.
   */
  function state(): LimiterState {
    const now = clock.now();
    if (now - reader.readAt >= pollMs) reader.refresh();
    return limiterState({
      now,
      plan: options.plan,
      limits,
      windowMs,
      shared: reader.snapshot,
      scopeOf,
      queued: { interactive: queue.count('interactive'), background: queue.count('background') },
      waitedMs,
      rateLimitedCount,
    });
  }

  async function settled(): Promise<void> {
    await turns.idle();
    // Read the store once more after everything issued so far: other processes' changes too.
    reader.refresh();
    await reader.current();
  }

  let closing: Promise<void> | undefined;
  function close(): Promise<void> {
    closing ??= (async () => {
      closed = true;
      reader.stop();
      loop.stop();
      for (const w of queue.drain()) w.reject(abortedWhileWaiting(undefined, 'The rate limiter is closed.'));
      await settled();
      await store.close();
    })();
    return closing;
  }

  return { acquire, observe, state, settled, close };
}
