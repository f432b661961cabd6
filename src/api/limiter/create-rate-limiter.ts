/**
 * The API key's rate limiter (docs/api.md §8 "one key, one budget"). Correctness lives in the
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
import type { PlanName } from '../../plan-names.js';
import { nextUtcMidnight } from '../../utc-days.js';
import type { EndpointKey } from '../endpoint-table.js';
import { QuotaExhaustedError } from '../errors.js';
import { PLAN_LIMITS, type PlanLimits } from '../plans.js';
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
  /** Pause after a 429 with no Retry-After and no delay in its text; default 60000 (docs/api.md §8). */
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

/** A plain object of bound functions, as callers spread and wrap it. */
export function createRateLimiter(options: RateLimiterOptions): SharedRateLimiter {
  const l = new KeyRateLimiter(options);
  return {
    acquire: l.acquire.bind(l),
    observe: l.observe.bind(l),
    state: l.state.bind(l),
    settled: l.settled.bind(l),
    close: l.close.bind(l),
  };
}

/** The limiter's parts, wired: see the top of this file for how they work together. */
class KeyRateLimiter implements SharedRateLimiter {
  private readonly clock: Clock;
  private readonly windowMs: number;
  private readonly pollMs: number;
  private readonly logger: Logger | undefined;
  private readonly limits: PlanLimits;
  private readonly store: BudgetStore;
  private readonly margin: SafetyMargin;
  private readonly ownGrants = new OwnGrants(MAX_LATENCY_MS);
  private readonly reaction: ReactionContext;
  private readonly reserve: InteractiveReserve;
  private readonly queue = new LaneQueue<Waiter>();
  private readonly turns = new SerialTurns();
  private readonly reader: BudgetReader;
  private readonly grants: GrantContext;
  private readonly loop: GrantLoop;
  private readonly waitedMs: Record<Lane, number> = { interactive: 0, background: 0 };
  private rateLimitedCount = 0;
  private closed = false;
  private closing: Promise<void> | undefined;
  private quotaLoggedFor = 0;

  constructor(private readonly options: RateLimiterOptions) {
    this.clock = options.clock ?? systemClock;
    this.windowMs = options.windowMs ?? 60_000;
    this.pollMs = options.pollMs ?? 1000;
    this.logger = options.logger;
    const limits: PlanLimits = { ...PLAN_LIMITS[options.plan], ...options.limits };
    this.limits = limits;
    this.store = options.budget(options.keyHash, {
      capacity: limits.burst,
      refillPerMs: limits.perMinute / this.windowMs,
      perDay: limits.perDay,
      windowMs: this.windowMs,
    });
    this.margin = safetyMarginFor(limits, this.windowMs);
    this.reaction = {
      limits,
      windowMs: this.windowMs,
      defaultRetryAfterMs: options.defaultRetryAfterMs ?? 60_000,
      maxJitterMs: options.maxJitterMs ?? 1000,
      random: options.random ?? Math.random,
      logger: this.logger,
      recordKey429: (now) => this.margin.record429(now),
    };
    this.reserve = new InteractiveReserve({
      togetherMs: this.windowMs / limits.perMinute,
      spanMs: this.windowMs * RESERVE_SPAN_WINDOWS,
      maxTokens: Math.max(1, limits.burst / 10),
    });
    this.reader = new BudgetReader(
      this.store,
      this.clock,
      untouchedBudget(limits, this.clock.now()),
      this.logger,
    );
    const { store, clock, turns, margin, reserve, ownGrants } = this;
    this.grants = { store, clock, turns, margin, reserve, ownGrants, burst: limits.burst };
    this.loop = new GrantLoop({
      clock,
      pollMs: this.pollMs,
      hasWaiters: () => this.queue.size > 0,
      grantOne: () => this.grantOne(),
    });
    this.reader.refresh();
  }

  private scopeOf(endpoint: EndpointKey): EndpointScope {
    return endpointScope(endpoint, this.options.endpointPerMinute);
  }

  /** Grants the first waiter that may go now (0), or returns how long until one may. */
  private async grantOne(): Promise<number> {
    const outcome = await decideGrant(this.grants, this.queue.heads());
    if (outcome.kind === 'failed') {
      for (const w of this.queue.drain()) w.reject(outcome.error);
      return 0;
    }
    this.reader.refresh();
    if (outcome.kind === 'wait') return outcome.waitMs;
    if (outcome.kind === 'quota') {
      this.quotaSpent(outcome.resetAt);
      return 0;
    }
    const { waiter, nowMs } = outcome;
    // A waiter that left (aborted, closed) while the store decided: its grant is spent and
    // counted, only unused. Counting a send that never happens errs on the safe side.
    if (!this.queue.remove(waiter)) return 0;
    this.waitedMs[waiter.lane] += nowMs - waiter.enqueuedAt;
    waiter.resolve();
    return 0;
  }

  private quotaSpent(resetAt: number): void {
    if (this.quotaLoggedFor !== resetAt) {
      this.quotaLoggedFor = resetAt;
      this.logger?.warn(
        { dailyLimit: this.limits.perDay, resetAt: new Date(resetAt).toISOString() },
        "The API key's daily request quota is spent; requests fail until it resets",
      );
    }
    for (const w of this.queue.drain()) w.reject(new QuotaExhaustedError(resetAt));
  }

  acquire(endpoint: EndpointKey, lane: Lane, signal?: AbortSignal, priority?: number): Promise<void> {
    if (this.closed) return Promise.reject(abortedWhileWaiting(undefined, 'The rate limiter is closed.'));
    if (signal?.aborted) return Promise.reject(abortedWhileWaiting(signal.reason));
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        if (!this.queue.remove(waiter)) return;
        reject(abortedWhileWaiting(signal?.reason));
        this.loop.pump();
      };
      const enqueuedAt = this.clock.now();
      const scope = this.scopeOf(endpoint);
      const waiter = newWaiter(scope, lane, enqueuedAt, priority, { resolve, reject, signal, onAbort });
      signal?.addEventListener('abort', onAbort, { once: true });
      if (lane === 'interactive') this.reserve.arrived(enqueuedAt);
      this.queue.push(waiter);
      this.loop.pump();
    });
  }

  /**
   * Never blocks the caller: what this process knows (its own grant the response answers,
   * the margin) is taken now, the store's part is queued in turn with the grant decisions.
   */
  observe(endpoint: EndpointKey, o: RateLimitObservation): void {
    if (this.closed) return;
    if (o.status === 429) this.rateLimitedCount++;
    const now = this.clock.now();
    const own = this.ownGrants.answered(now);
    if (own) this.margin.answered(own.grantedAtMs, now);
    const view = { own, marginTokens: this.margin.tokens(now) };
    const window = this.scopeOf(endpoint);
    const { reaction, store } = this;
    this.turns
      .run(() =>
        // One transaction: the other process sees the whole reaction to a response or none.
        store.react(reactionQuery(reaction, window, o, now), (facts) =>
          reactToResponse(reaction, endpoint, window, o, now, view, facts),
        ),
      )
      .then(
        () => {
          this.reader.refresh();
          if (o.status === 429) this.loop.pump();
        },
        (error: unknown) => {
          // A response must never fail because its bookkeeping did (e.g. the database is busy).
          this.logger?.error({ err: error, endpoint }, 'The rate limiter could not record a response');
        },
      );
  }

  /**
   * Synchronous for metrics, /healthz and status: the shared budget as last read, which
   * every decision and reaction of this process refreshes; a read older than pollMs (other
   * processes may have spent meanwhile) starts another for the next caller.
   */
  state(): LimiterState {
    const now = this.clock.now();
    if (now - this.reader.readAt >= this.pollMs) this.reader.refresh();
    return limiterState({
      now,
      plan: this.options.plan,
      limits: this.limits,
      windowMs: this.windowMs,
      shared: this.reader.snapshot,
      scopeOf: (key) => this.scopeOf(key),
      queued: { interactive: this.queue.count('interactive'), background: this.queue.count('background') },
      waitedMs: this.waitedMs,
      rateLimitedCount: this.rateLimitedCount,
    });
  }

  async settled(): Promise<void> {
    await this.turns.idle();
    // Read the store once more after everything issued so far: other processes' changes too.
    this.reader.refresh();
    await this.reader.current();
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.closed = true;
      this.reader.stop();
      this.loop.stop();
      for (const w of this.queue.drain())
        w.reject(abortedWhileWaiting(undefined, 'The rate limiter is closed.'));
      await this.settled();
      await this.store.close();
    })();
    return this.closing;
  }
}
