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
import { type EndpointKey, endpointKeys } from '../endpoint-table.js';
import { QuotaExhaustedError } from '../errors.js';
import { PLAN_LIMITS, type PlanLimits, type PlanName } from '../plans.js';
import { abortedWhileWaiting } from './aborted-while-waiting.js';
import type { SharedSnapshot, TakeResult } from './budget-store.js';
import { type BudgetStore, BudgetStoreError, type BudgetStoreFactory } from './budget-store.js';
import { type EndpointScope, endpointScope } from './endpoint-scope.js';
import { InteractiveReserve } from './interactive-reserve.js';
import { LaneQueue } from './lane-queue.js';
import { OwnGrants } from './own-grants.js';
import { type ReactionContext, reactionQuery, reactToResponse } from './react-to-response.js';
import { SafetyMargin } from './safety-margin.js';
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
  const waitedMs: Record<Lane, number> = { interactive: 0, background: 0 };
  let rateLimitedCount = 0;
  let closed = false;
  let running = false;
  /** A waiter arrived or left while a decision was with the store: decide again at once. */
  let rerun = false;
  /** Aborting it cuts the dispatcher's sleep short: a waiter arrived or left. */
  let wake: AbortController | null = null;
  let quotaLoggedFor = 0;

  /**
   * Every store operation of this process, one at a time in the order issued: a reaction
   * queued by observe() is in the store before the next grant decision reads it.
   */
  let tail: Promise<unknown> = Promise.resolve();
  function inTurn<T>(op: () => Promise<T>): Promise<T> {
    const result = tail.then(op);
    tail = result.catch(() => undefined);
    return result;
  }

  /** What state() reports: the store as last read (a decision or reaction triggers a read). */
  let shared: SharedSnapshot = {
    tokens: limits.burst,
    usedToday: 0,
    dailyResetAt: nextUtcMidnight(clock.now()),
    keyPausedUntil: null,
    scopePauses: new Map(),
  };
  let sharedAt = Number.NEGATIVE_INFINITY;
  /**
   * Reads run beside the decisions, never in their turn (a read must not delay a grant):
   * one at a time, and one more when asked meanwhile, so the last read starts after the
   * last change this process made.
   */
  let refreshing: Promise<void> | null = null;
  let refreshAgain = false;
  function refresh(): void {
    if (closed) return;
    if (refreshing) {
      refreshAgain = true;
      return;
    }
    refreshing = (async () => {
      try {
        do {
          refreshAgain = false;
          const at = clock.now();
          // Set first: a store that fails is asked again after pollMs, not on every state().
          sharedAt = at;
          try {
            shared = await store.snapshot(at);
          } catch (error) {
            logger?.warn({ err: error }, 'The rate limiter could not read the shared budget');
          }
        } while (refreshAgain && !closed);
      } finally {
        refreshing = null;
      }
    })();
  }
  refresh();

  function pump(): void {
    if (running) {
      rerun = true;
      wake?.abort();
      return;
    }
    void dispatch();
  }

  async function dispatch(): Promise<void> {
    running = true;
    try {
      while (!closed && queue.size > 0) {
        rerun = false;
        const waitMs = await grantOne();
        if (waitMs === 0 || rerun) continue;
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
  async function grantOne(): Promise<number> {
    const heads = queue.heads();
    const now = clock.now();
    const headroom = margin.tokens(now);
    const backgroundReserve = reserve.tokens(now);
    let result: TakeResult;
    try {
      result = await inTurn(() =>
        store.takeFirst(
          () => clock.now(),
          heads.map((w) => ({
            scope: w.scope,
            limit: w.limit,
            tokensLeft: (w.lane === 'background' ? backgroundReserve : 0) + headroom,
            slotsLeft: w.lane === 'background' ? BACKGROUND_RESERVE : 0,
          })),
        ),
      );
    } catch (error) {
      // The store failed (closed, unreachable, locked too long): nobody can be paced.
      const failure =
        error instanceof BudgetStoreError
          ? error
          : new BudgetStoreError('The rate budget could not grant a request.', error);
      for (const w of queue.drain()) w.reject(failure);
      return 0;
    }
    refresh();
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
      margin.granted(result.nowMs);
      ownGrants.granted(result.nowMs, result.tokensBefore - 1);
      // A waiter that left (aborted, closed) while the store decided: its grant is spent
      // and counted, only unused. Counting a send that never happens errs on the safe side.
      if (!queue.remove(waiter)) return 0;
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
    inTurn(() =>
      // One transaction: the other process sees the whole reaction to a response or none.
      store.react(reactionQuery(reaction, window, o, now), (facts) =>
        reactToResponse(reaction, endpoint, window, o, now, view, facts),
      ),
    ).then(
      () => {
        refresh();
        if (o.status === 429) pump();
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
    if (now - sharedAt >= pollMs) refresh();
    const endpointPauses: LimiterState['endpointPauses'] = {};
    for (const key of endpointKeys) {
      const until = shared.scopePauses.get(scopeOf(key).scope);
      if (until !== undefined && until > now) endpointPauses[key] = until;
    }
    const dayOver = now >= shared.dailyResetAt;
    return {
      plan: options.plan,
      tokens: shared.tokens,
      capacity: limits.burst,
      refillPerSecond: (limits.perMinute * 1000) / windowMs,
      usedToday: dayOver ? 0 : shared.usedToday,
      dailyLimit: limits.perDay,
      dailyResetAt: dayOver ? nextUtcMidnight(now) : shared.dailyResetAt,
      keyPausedUntil:
        shared.keyPausedUntil !== null && shared.keyPausedUntil > now ? shared.keyPausedUntil : null,
      endpointPauses,
      lanes: {
        interactive: { queued: queue.count('interactive') },
        background: { queued: queue.count('background') },
      },
      waitedMs: { ...waitedMs },
      rateLimitedCount,
    };
  }

  async function settled(): Promise<void> {
    for (;;) {
      const last = tail;
      await last;
      if (last === tail) break;
    }
    // Read the store once more after everything issued so far: other processes' changes too.
    refresh();
    while (refreshing) await refreshing;
  }

  let closing: Promise<void> | undefined;
  function close(): Promise<void> {
    closing ??= (async () => {
      closed = true;
      for (const w of queue.drain()) w.reject(abortedWhileWaiting(undefined, 'The rate limiter is closed.'));
      wake?.abort();
      await settled();
      await store.close();
    })();
    return closing;
  }

  return { acquire, observe, state, settled, close };
}
