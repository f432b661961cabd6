/**
 * The key's shared budget in SQLite: token bucket, per-scope sliding windows, pauses and
 * the daily count. Every decision reads and writes inside one short BEGIN IMMEDIATE
 * transaction, so two processes (or two limiters on one file) never both spend the same
 * token: the second waits for SQLite's lock and then sees the first's take. Synchronous;
 * the limiter reaches it through sqlite-budget-store.ts, on a connection of its own.
 */
import type Database from 'better-sqlite3';
import { nextUtcMidnight, utcDay } from '../../utc-days.js';
import {
  type BudgetWrite,
  type DecideReaction,
  KEY_SCOPE,
  type ReactionFacts,
  type ReactionQuery,
  type SharedBucketConfig,
  type SharedSnapshot,
  type TakeRequest,
  type TakeResult,
} from './budget-store.js';
import { drainAfterPause, msUntilWindowSlot } from './sliding-window.js';
import { type BucketLevel, msUntilTokens, refill } from './token-bucket.js';

export { KEY_SCOPE, type SharedBucketConfig, type SharedSnapshot, type TakeRequest, type TakeResult };

interface BucketRow {
  tokens: number;
  updated_at_ms: number;
  paused_until_ms: number | null;
}

export class SharedBucketStore {
  private readonly statements: Statements;
  private readonly takeTx: Database.Transaction<
    (clockNow: () => number, requests: readonly TakeRequest[]) => TakeResult
  >;

  constructor(
    // The driver's type, not store/'s alias: api/ sits below store/ and only borrows the handle.
    private readonly db: Database.Database,
    private readonly keyHash: string,
    private readonly config: SharedBucketConfig,
  ) {
    this.statements = prepareStatements(db);
    // The time is read once the lock is held: a time read before waiting for another
    // process's transaction would be stale, and a send recorded early leaves its window early.
    this.takeTx = db.transaction((clockNow: () => number, requests: readonly TakeRequest[]) =>
      this.takeFirstInTx(clockNow(), requests),
    );
  }

  /**
   * Grants the first request (in the caller's priority order) that may be sent now, and
   * counts it against the bucket, its window and the day. Otherwise says how long until
   * the earliest of them could go, or that the day's quota is spent.
   */
  takeFirst(clockNow: () => number, requests: readonly TakeRequest[]): TakeResult {
    return this.takeTx.immediate(clockNow, requests);
  }

  private takeFirstInTx(nowMs: number, requests: readonly TakeRequest[]): TakeResult {
    const day = utcDay(nowMs);
    const used = this.statements.usedOn.get(this.keyHash, day) ?? 0;
    if (this.config.perDay !== null && used >= this.config.perDay) {
      return { kind: 'quota', resetAt: nextUtcMidnight(nowMs) };
    }
    const row = this.statements.bucket.get(this.keyHash);
    const pausedUntil = row?.paused_until_ms ?? null;
    if (pausedUntil !== null && pausedUntil > nowMs) return { kind: 'wait', waitMs: pausedUntil - nowMs };
    const level = this.levelOf(row, nowMs);

    let earliest = Number.POSITIVE_INFINITY;
    for (const [index, request] of requests.entries()) {
      const waitMs = Math.max(
        msUntilTokens(level, this.config, nowMs, Math.min(1 + request.tokensLeft, this.config.capacity)),
        this.scopePauseWait(request.scope, nowMs),
        this.windowWait(request, nowMs),
      );
      if (waitMs <= 0) {
        this.spend(level, pausedUntil, request, day, nowMs);
        // The first send of a UTC day: earlier days' counts are of no further use.
        if (used === 0) this.statements.pruneDays.run(this.keyHash, day);
        return { kind: 'granted', index, nowMs, tokensBefore: level.tokens };
      }
      earliest = Math.min(earliest, waitMs);
    }
    return { kind: 'wait', waitMs: earliest, tokensBefore: level.tokens };
  }

  private levelOf(row: BucketRow | undefined, nowMs: number): BucketLevel {
    // A key seen for the first time starts with a full bucket, as the service's does.
    if (!row) return { tokens: this.config.capacity, atMs: nowMs };
    return refill({ tokens: row.tokens, atMs: row.updated_at_ms }, this.config, nowMs);
  }

  private scopePauseWait(scope: string, nowMs: number): number {
    const until = this.statements.scopePause.get(this.keyHash, scope)?.paused_until_ms;
    return until === undefined ? 0 : until - nowMs;
  }

  private windowWait(request: TakeRequest, nowMs: number): number {
    if (request.limit === null) return 0;
    const sends = this.statements.sends.all(this.keyHash, request.scope, nowMs - this.config.windowMs);
    const free = 1 + Math.min(request.slotsLeft, request.limit - 1);
    return msUntilWindowSlot(sends, request.limit, this.config.windowMs, nowMs, free);
  }

  private spend(
    level: BucketLevel,
    pausedUntil: number | null,
    request: TakeRequest,
    day: string,
    nowMs: number,
  ): void {
    const s = this.statements;
    s.saveBucket.run(this.keyHash, Math.max(0, level.tokens - 1), level.atMs, pausedUntil);
    const scopes = request.limit === null ? [KEY_SCOPE] : [KEY_SCOPE, request.scope];
    for (const scope of scopes) {
      s.pruneSends.run(this.keyHash, scope, nowMs - this.config.windowMs);
      s.addSend.run(this.keyHash, scope, nowMs);
    }
    s.countUse.run(this.keyHash, day);
  }

  /**
   * Pauses the whole key until `untilMs`. With `restartEmpty` the bucket holds no tokens
   * at the end of the pause and refills from there, so every waiter (in every process)
   * resumes at the refill rate instead of all at once.
   */
  pauseKey(nowMs: number, untilMs: number, restartEmpty: boolean): void {
    this.immediate(() => {
      const row = this.statements.bucket.get(this.keyHash);
      const until = Math.max(untilMs, row?.paused_until_ms ?? 0);
      const level = restartEmpty ? { tokens: 0, atMs: until } : this.levelOf(row, nowMs);
      this.statements.saveBucket.run(this.keyHash, level.tokens, level.atMs, until);
    });
  }

  /**
   * Pauses one endpoint scope until `untilMs`. With a limit, the scope's window is rewritten
   * so that from `untilMs` on its slots free one per `windowMs / limit` at the earliest:
   * after the pause the endpoint drains at its own rate (see drainAfterPause).
   */
  pauseScope(scope: string, untilMs: number, limit: number | null, nowMs: number): void {
    this.immediate(() => {
      const s = this.statements;
      s.pauseScope.run(this.keyHash, scope, untilMs);
      if (limit === null) return;
      const live = s.sends.all(this.keyHash, scope, nowMs - this.config.windowMs);
      s.pruneSends.run(this.keyHash, scope, Number.MAX_SAFE_INTEGER);
      for (const t of drainAfterPause(live, limit, this.config.windowMs, untilMs)) {
        s.addAnswered.run(this.keyHash, scope, t);
      }
    });
  }

  /** The server counts fewer requests left than the bucket holds: believe the server. */
  lowerTokens(nowMs: number, atMost: number): void {
    this.immediate(() => {
      const row = this.statements.bucket.get(this.keyHash);
      const level = this.levelOf(row, nowMs);
      if (level.tokens <= atMost) return;
      this.statements.saveBucket.run(this.keyHash, atMost, level.atMs, row?.paused_until_ms ?? null);
    });
  }

  /** Another client spent `count` tokens our grants do not account for: take them too. */
  spendTokens(nowMs: number, count: number): void {
    this.immediate(() => {
      const row = this.statements.bucket.get(this.keyHash);
      const level = this.levelOf(row, nowMs);
      this.statements.saveBucket.run(
        this.keyHash,
        Math.max(0, level.tokens - count),
        level.atMs,
        row?.paused_until_ms ?? null,
      );
    });
  }

  /**
   * A response to `scope` came back at `nowMs`: the oldest send still in flight is moved to
   * that time. The server counted the request when it arrived, which may be well after
   * the grant (a burst queues for connections); the k-th response is no earlier than the
   * k-th arrival, so windows counted from response times never end before the server's.
   */
  settleSend(scope: string, nowMs: number): number | undefined {
    const s = this.statements;
    const oldest = s.oldestInFlight.get(this.keyHash, scope);
    if (!oldest) return undefined;
    s.settle.run(Math.max(oldest.sent_at_ms, nowMs), oldest.id);
    return oldest.sent_at_ms;
  }

  /** Sends recorded for `scope` (KEY_SCOPE: all of the key's) after `sinceMs`, one window at most. */
  sendsSince(scope: string, sinceMs: number): number {
    return this.statements.countSends.get(this.keyHash, scope, sinceMs) ?? 0;
  }

  /** The service says the day's quota is spent (a 429 naming a daily limit): stop until midnight. */
  markDaySpent(nowMs: number): void {
    if (this.config.perDay === null) return;
    this.statements.setUse.run(this.keyHash, utcDay(nowMs), this.config.perDay);
  }

  snapshot(nowMs: number): SharedSnapshot {
    const row = this.statements.bucket.get(this.keyHash);
    const pausedUntil = row?.paused_until_ms ?? null;
    return {
      tokens: this.levelOf(row, nowMs).tokens,
      usedToday: this.statements.usedOn.get(this.keyHash, utcDay(nowMs)) ?? 0,
      dailyResetAt: nextUtcMidnight(nowMs),
      keyPausedUntil: pausedUntil !== null && pausedUntil > nowMs ? pausedUntil : null,
      scopePauses: new Map(
        this.statements.scopePauses.all(this.keyHash, nowMs).map((r) => [r.scope, r.paused_until_ms]),
      ),
    };
  }

  /**
   * A reaction to one response (budget-store.ts): settles the send it answers, reads the
   * facts, applies what `decide` returns, all in one IMMEDIATE transaction.
   */
  react(query: ReactionQuery, decide: DecideReaction): void {
    this.immediate(() => {
      const { scope, limit, nowMs, headerSinceMs } = query;
      if (limit !== null) this.settleSend(scope, nowMs);
      this.settleSend(KEY_SCOPE, nowMs);
      const facts: ReactionFacts = {
        scopeSends: limit === null ? 0 : this.sendsSince(scope, nowMs - this.config.windowMs),
        tokens: this.levelOf(this.statements.bucket.get(this.keyHash), nowMs).tokens,
        headerSends:
          headerSinceMs === null
            ? { scope: 0, key: 0 }
            : {
                scope: this.sendsSince(scope, headerSinceMs),
                key: this.sendsSince(KEY_SCOPE, headerSinceMs),
              },
      };
      for (const write of decide(facts)) this.apply(write, nowMs);
    });
  }

  private apply(write: BudgetWrite, nowMs: number): void {
    switch (write.op) {
      case 'pauseKey':
        this.pauseKey(nowMs, write.untilMs, write.restartEmpty);
        break;
      case 'pauseScope':
        this.pauseScope(write.scope, write.untilMs, write.limit, nowMs);
        break;
      case 'lowerTokens':
        this.lowerTokens(nowMs, write.atMost);
        break;
      case 'spendTokens':
        this.spendTokens(nowMs, write.count);
        break;
      case 'markDaySpent':
        this.markDaySpent(nowMs);
        break;
    }
  }

  private immediate(fn: () => void): void {
    this.db.transaction(fn).immediate();
  }
}

type Statements = ReturnType<typeof prepareStatements>;

function prepareStatements(db: Database.Database) {
  return {
    bucket: db.prepare<[string], BucketRow>(
      'SELECT tokens, updated_at_ms, paused_until_ms FROM rate_buckets WHERE key_hash = ?',
    ),
    saveBucket: db.prepare<[string, number, number, number | null]>(
      `INSERT INTO rate_buckets (key_hash, tokens, updated_at_ms, paused_until_ms) VALUES (?, ?, ?, ?)
       ON CONFLICT (key_hash) DO UPDATE SET tokens = excluded.tokens,
         updated_at_ms = excluded.updated_at_ms, paused_until_ms = excluded.paused_until_ms`,
    ),
    scopePause: db.prepare<[string, string], { paused_until_ms: number }>(
      'SELECT paused_until_ms FROM rate_scope_pauses WHERE key_hash = ? AND scope = ?',
    ),
    scopePauses: db.prepare<[string, number], { scope: string; paused_until_ms: number }>(
      'SELECT scope, paused_until_ms FROM rate_scope_pauses WHERE key_hash = ? AND paused_until_ms > ?',
    ),
    pauseScope: db.prepare<[string, string, number]>(
      `INSERT INTO rate_scope_pauses (key_hash, scope, paused_until_ms) VALUES (?, ?, ?)
       ON CONFLICT (key_hash, scope) DO UPDATE
         SET paused_until_ms = max(paused_until_ms, excluded.paused_until_ms)`,
    ),
    sends: db
      .prepare<[string, string, number], number>(
        'SELECT sent_at_ms FROM rate_sends WHERE key_hash = ? AND scope = ? AND sent_at_ms > ? ORDER BY sent_at_ms',
      )
      .pluck(),
    countSends: db
      .prepare<[string, string, number], number>(
        'SELECT count(*) FROM rate_sends WHERE key_hash = ? AND scope = ? AND sent_at_ms > ?',
      )
      .pluck(),
    addSend: db.prepare<[string, string, number]>(
      'INSERT INTO rate_sends (key_hash, scope, sent_at_ms) VALUES (?, ?, ?)',
    ),
    addAnswered: db.prepare<[string, string, number]>(
      'INSERT INTO rate_sends (key_hash, scope, sent_at_ms, settled) VALUES (?, ?, ?, 1)',
    ),
    oldestInFlight: db.prepare<[string, string], { id: number; sent_at_ms: number }>(
      `SELECT rowid AS id, sent_at_ms FROM rate_sends WHERE key_hash = ? AND scope = ? AND settled = 0
       ORDER BY sent_at_ms LIMIT 1`,
    ),
    settle: db.prepare<[number, number]>('UPDATE rate_sends SET sent_at_ms = ?, settled = 1 WHERE rowid = ?'),
    pruneSends: db.prepare<[string, string, number]>(
      'DELETE FROM rate_sends WHERE key_hash = ? AND scope = ? AND sent_at_ms <= ?',
    ),
    usedOn: db
      .prepare<[string, string], number>('SELECT count FROM rate_daily_usage WHERE key_hash = ? AND day = ?')
      .pluck(),
    countUse: db.prepare<[string, string]>(
      `INSERT INTO rate_daily_usage (key_hash, day, count) VALUES (?, ?, 1)
       ON CONFLICT (key_hash, day) DO UPDATE SET count = count + 1`,
    ),
    setUse: db.prepare<[string, string, number]>(
      `INSERT INTO rate_daily_usage (key_hash, day, count) VALUES (?, ?, ?)
       ON CONFLICT (key_hash, day) DO UPDATE SET count = max(count, excluded.count)`,
    ),
    pruneDays: db.prepare<[string, string]>('DELETE FROM rate_daily_usage WHERE key_hash = ? AND day < ?'),
  };
}
