/**
 * The key's shared budget in Postgres: the counterpart of the SQLite SharedBucketStore
 * (src/api/limiter/shared-bucket-store.ts) with the same semantics, for replicas on
 * several hosts. Token bucket, per-scope sliding windows, pauses and the daily count are
 * read and written in one transaction per decision, which first takes a transaction-level
 * advisory lock on the key: every process deciding for the same key queues on that lock,
 * so two never spend the same token. (Row locks alone would not do: the first grant of a
 * key has no row to lock yet, and a window is a set of rows.) The time is read once the
 * lock is held, as in SQLite, so a decision never works from a time older than the last
 * one committed.
 *
 * The arithmetic is the SQLite store's own (token-bucket.ts, sliding-window.ts); only the
 * storage differs.
 */
import {
  type BudgetStore,
  type BudgetWrite,
  type DecideReaction,
  KEY_SCOPE,
  type ReactionQuery,
  type SharedBucketConfig,
  type SharedSnapshot,
  type TakeRequest,
  type TakeResult,
} from '../../api/limiter/budget-store.js';
import { drainAfterPause, msUntilWindowSlot } from '../../api/limiter/sliding-window.js';
import { type BucketLevel, msUntilTokens, refill } from '../../api/limiter/token-bucket.js';
import { nextUtcMidnight, utcDay } from '../../utc-days.js';
import { type PgClient, type PgPool, withTransaction } from './create-pool.js';

/**
 * Times are stored as whole ms (bigint), SQLite's columns hold what they are given. The
 * limiter's clocks give whole ms; a fraction is rounded up (a later send, a longer pause),
 * never towards an earlier grant.
 */
const wholeMs = (ms: number) => Math.ceil(ms);

interface BucketRow {
  tokens: number;
  updated_at_ms: number;
  paused_until_ms: number | null;
}

/** The store's operations inside one transaction that already holds the key's lock. */
export interface PgBucketTransaction {
  pauseKey(nowMs: number, untilMs: number, restartEmpty: boolean): Promise<void>;
  pauseScope(scope: string, untilMs: number, limit: number | null, nowMs: number): Promise<void>;
  lowerTokens(nowMs: number, atMost: number): Promise<void>;
  spendTokens(nowMs: number, count: number): Promise<void>;
  settleSend(scope: string, nowMs: number): Promise<number | undefined>;
  sendsSince(scope: string, sinceMs: number): Promise<number>;
  markDaySpent(nowMs: number): Promise<void>;
}

export class PgSharedBucketStore {
  constructor(
    private readonly pool: PgPool,
    private readonly keyHash: string,
    private readonly config: SharedBucketConfig,
  ) {}

  /**
   * Grants the first request (in the caller's priority order) that may be sent now, and
   * counts it against the bucket, its window and the day. Otherwise says how long until
   * the earliest of them could go, or that the day's quota is spent.
   */
  takeFirst(clockNow: () => number, requests: readonly TakeRequest[]): Promise<TakeResult> {
    return this.locked((c) => this.takeFirstInTx(c, wholeMs(clockNow()), requests));
  }

  pauseKey(nowMs: number, untilMs: number, restartEmpty: boolean): Promise<void> {
    return this.locked((c) => this.tx(c).pauseKey(nowMs, untilMs, restartEmpty));
  }

  pauseScope(scope: string, untilMs: number, limit: number | null, nowMs: number): Promise<void> {
    return this.locked((c) => this.tx(c).pauseScope(scope, untilMs, limit, nowMs));
  }

  lowerTokens(nowMs: number, atMost: number): Promise<void> {
    return this.locked((c) => this.tx(c).lowerTokens(nowMs, atMost));
  }

  /** Another client spent `count` tokens our grants do not account for: take them too. */
  spendTokens(nowMs: number, count: number): Promise<void> {
    return this.locked((c) => this.tx(c).spendTokens(nowMs, count));
  }

  settleSend(scope: string, nowMs: number): Promise<number | undefined> {
    return this.locked((c) => this.tx(c).settleSend(scope, nowMs));
  }

  sendsSince(scope: string, sinceMs: number): Promise<number> {
    return this.countSends(this.pool, scope, sinceMs);
  }

  markDaySpent(nowMs: number): Promise<void> {
    return this.locked((c) => this.tx(c).markDaySpent(nowMs));
  }

  /** Runs `fn` in one transaction holding the key's lock (a 429's several changes at once). */
  atomically(fn: (tx: PgBucketTransaction) => Promise<void>): Promise<void> {
    return this.locked((c) => fn(this.tx(c)));
  }

  /**
   * A reaction to one response (budget-store.ts). The settle and the reads are single
   * statements that need not wait for the key's lock: a settle only moves this key's
   * oldest send in flight later, which a concurrent decision may see or not (either is
   * an order the two could have happened in). The writes, when the decision makes any,
   * run in one transaction holding the lock, and each reads the state it changes there:
   * most responses change nothing, so most reactions never queue behind the replicas'
   * grant decisions.
   */
  async react(query: ReactionQuery, decide: DecideReaction): Promise<void> {
    const { scope, limit, headerSinceMs } = query;
    const nowMs = wholeMs(query.nowMs);
    const key = this.keyHash;
    await this.pool.query(
      `UPDATE rate_sends AS s SET sent_at_ms = greatest(s.sent_at_ms, $3), settled = true
        WHERE s.id IN (SELECT DISTINCT ON (scope) id FROM rate_sends
                        WHERE key_hash = $1 AND scope = ANY($2) AND NOT settled
                        ORDER BY scope, sent_at_ms, id)`,
      [key, limit === null ? [KEY_SCOPE] : [KEY_SCOPE, scope], nowMs],
    );
    const since = headerSinceMs === null ? null : Math.floor(headerSinceMs);
    const { rows } = await this.pool.query<{
      scope_sends: number;
      bucket: BucketRow | null;
      header_scope: number;
      header_key: number;
    }>(
      `SELECT
         (SELECT count(*)::int FROM rate_sends WHERE key_hash = $1 AND scope = $2 AND sent_at_ms > $3) AS scope_sends,
         (SELECT json_build_object('tokens', tokens, 'updated_at_ms', updated_at_ms,
                                   'paused_until_ms', paused_until_ms)
            FROM rate_buckets WHERE key_hash = $1) AS bucket,
         (SELECT count(*)::int FROM rate_sends WHERE key_hash = $1 AND scope = $2 AND sent_at_ms > $4) AS header_scope,
         (SELECT count(*)::int FROM rate_sends WHERE key_hash = $1 AND scope = $5 AND sent_at_ms > $4) AS header_key`,
      [key, scope, Math.floor(nowMs - this.config.windowMs), since ?? Number.MAX_SAFE_INTEGER, KEY_SCOPE],
    );
    const read = rows[0]!;
    const writes = decide({
      scopeSends: limit === null ? 0 : read.scope_sends,
      tokens: this.levelOf(read.bucket ?? undefined, nowMs).tokens,
      headerSends: since === null ? { scope: 0, key: 0 } : { scope: read.header_scope, key: read.header_key },
    });
    if (writes.length === 0) return;
    await this.locked(async (c) => {
      const tx = this.tx(c);
      for (const write of writes) await applyWrite(tx, write, nowMs);
    });
  }

  async snapshot(at: number): Promise<SharedSnapshot> {
    const nowMs = wholeMs(at);
    const [row, used, pauses] = await Promise.all([
      this.bucketRow(this.pool),
      this.usedOn(this.pool, utcDay(nowMs)),
      this.pool.query<{ scope: string; paused_until_ms: number }>(
        'SELECT scope, paused_until_ms FROM rate_scope_pauses WHERE key_hash = $1 AND paused_until_ms > $2',
        [this.keyHash, nowMs],
      ),
    ]);
    const pausedUntil = row?.paused_until_ms ?? null;
    return {
      tokens: this.levelOf(row, nowMs).tokens,
      usedToday: used,
      dailyResetAt: nextUtcMidnight(nowMs),
      keyPausedUntil: pausedUntil !== null && pausedUntil > nowMs ? pausedUntil : null,
      scopePauses: new Map(pauses.rows.map((r) => [r.scope, r.paused_until_ms])),
    };
  }

  private async takeFirstInTx(
    c: PgClient,
    nowMs: number,
    requests: readonly TakeRequest[],
  ): Promise<TakeResult> {
    const day = utcDay(nowMs);
    // Everything a decision depends on in one statement: the key's lock is held across
    // every round trip of this transaction, and every replica queues behind it.
    const scopes = [...new Set(requests.map((r) => r.scope))];
    const { rows } = await c.query<{
      used: number | null;
      bucket: BucketRow | null;
      pauses: [string, number][];
      sends: [string, number][];
    }>(
      `SELECT
         (SELECT count FROM rate_daily_usage WHERE key_hash = $1 AND day = $2) AS used,
         (SELECT json_build_object('tokens', tokens, 'updated_at_ms', updated_at_ms,
                                   'paused_until_ms', paused_until_ms)
            FROM rate_buckets WHERE key_hash = $1) AS bucket,
         (SELECT coalesce(json_agg(json_build_array(scope, paused_until_ms)), '[]')
            FROM rate_scope_pauses WHERE key_hash = $1 AND scope = ANY($3)) AS pauses,
         (SELECT coalesce(json_agg(json_build_array(scope, sent_at_ms) ORDER BY sent_at_ms, id), '[]')
            FROM rate_sends WHERE key_hash = $1 AND scope = ANY($3) AND sent_at_ms > $4) AS sends`,
      [this.keyHash, day, scopes, nowMs - this.config.windowMs],
    );
    const read = rows[0]!;
    const used = read.used ?? 0;
    if (this.config.perDay !== null && used >= this.config.perDay) {
      return { kind: 'quota', resetAt: nextUtcMidnight(nowMs) };
    }
    const row = read.bucket ?? undefined;
    const pausedUntil = row?.paused_until_ms ?? null;
    if (pausedUntil !== null && pausedUntil > nowMs) return { kind: 'wait', waitMs: pausedUntil - nowMs };
    const level = this.levelOf(row, nowMs);

    const pauseOf = new Map(read.pauses);
    const sendsOf = new Map<string, number[]>();
    for (const [scope, at] of read.sends) sendsOf.set(scope, [...(sendsOf.get(scope) ?? []), at]);

    let earliest = Number.POSITIVE_INFINITY;
    for (const [index, request] of requests.entries()) {
      const pauseUntil = pauseOf.get(request.scope);
      const waitMs = Math.max(
        msUntilTokens(level, this.config, nowMs, Math.min(1 + request.tokensLeft, this.config.capacity)),
        pauseUntil === undefined ? 0 : pauseUntil - nowMs,
        this.windowWait(request, sendsOf.get(request.scope) ?? [], nowMs),
      );
      if (waitMs <= 0) {
        await this.spend(c, level, pausedUntil, request, day, nowMs);
        // The first send of a UTC day: earlier days' counts are of no further use.
        if (used === 0) {
          await c.query('DELETE FROM rate_daily_usage WHERE key_hash = $1 AND day < $2', [this.keyHash, day]);
        }
        return { kind: 'granted', index, nowMs, tokensBefore: level.tokens };
      }
      earliest = Math.min(earliest, waitMs);
    }
    return { kind: 'wait', waitMs: earliest, tokensBefore: level.tokens };
  }

  private windowWait(request: TakeRequest, sends: readonly number[], nowMs: number): number {
    if (request.limit === null) return 0;
    const free = 1 + Math.min(request.slotsLeft, request.limit - 1);
    return msUntilWindowSlot(sends, request.limit, this.config.windowMs, nowMs, free);
  }

  /** Every write of a grant in one statement (one round trip under the key's lock). */
  private async spend(
    c: PgClient,
    level: BucketLevel,
    pausedUntil: number | null,
    request: TakeRequest,
    day: string,
    nowMs: number,
  ): Promise<void> {
    const scopes = request.limit === null ? [KEY_SCOPE] : [KEY_SCOPE, request.scope];
    // The pruned rows are older than a window, the new ones are now: the two never meet.
    await c.query(
      `WITH bucket AS (
         INSERT INTO rate_buckets (key_hash, tokens, updated_at_ms, paused_until_ms) VALUES ($1, $2, $3, $4)
         ON CONFLICT (key_hash) DO UPDATE SET tokens = excluded.tokens,
           updated_at_ms = excluded.updated_at_ms, paused_until_ms = excluded.paused_until_ms
       ), pruned AS (
         DELETE FROM rate_sends WHERE key_hash = $1 AND scope = ANY($5) AND sent_at_ms <= $6
       ), sent AS (
         INSERT INTO rate_sends (key_hash, scope, sent_at_ms) SELECT $1, scope, $7 FROM unnest($5::text[]) AS scope
       )
       INSERT INTO rate_daily_usage (key_hash, day, count) VALUES ($1, $8, 1)
       ON CONFLICT (key_hash, day) DO UPDATE SET count = rate_daily_usage.count + 1`,
      [
        this.keyHash,
        Math.max(0, level.tokens - 1),
        wholeMs(level.atMs),
        pausedUntil === null ? null : wholeMs(pausedUntil),
        scopes,
        nowMs - this.config.windowMs,
        nowMs,
        day,
      ],
    );
  }

  private levelOf(row: BucketRow | undefined, nowMs: number): BucketLevel {
    // A key seen for the first time starts with a full bucket, as the service's does.
    if (!row) return { tokens: this.config.capacity, atMs: nowMs };
    return refill({ tokens: row.tokens, atMs: row.updated_at_ms }, this.config, nowMs);
  }

  private async bucketRow(c: PgClient | PgPool): Promise<BucketRow | undefined> {
    const { rows } = await c.query<BucketRow>(
      'SELECT tokens, updated_at_ms, paused_until_ms FROM rate_buckets WHERE key_hash = $1',
      [this.keyHash],
    );
    return rows[0];
  }

  private async usedOn(c: PgClient | PgPool, day: string): Promise<number> {
    const { rows } = await c.query<{ count: number }>(
      'SELECT count FROM rate_daily_usage WHERE key_hash = $1 AND day = $2',
      [this.keyHash, day],
    );
    return rows[0]?.count ?? 0;
  }

  private async saveBucket(
    c: PgClient,
    tokens: number,
    atMs: number,
    pausedUntil: number | null,
  ): Promise<void> {
    await c.query(
      `INSERT INTO rate_buckets (key_hash, tokens, updated_at_ms, paused_until_ms) VALUES ($1, $2, $3, $4)
       ON CONFLICT (key_hash) DO UPDATE SET tokens = excluded.tokens,
         updated_at_ms = excluded.updated_at_ms, paused_until_ms = excluded.paused_until_ms`,
      [this.keyHash, tokens, wholeMs(atMs), pausedUntil === null ? null : wholeMs(pausedUntil)],
    );
  }

  private async countSends(q: PgClient | PgPool, scope: string, sinceMs: number): Promise<number> {
    const { rows } = await q.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM rate_sends WHERE key_hash = $1 AND scope = $2 AND sent_at_ms > $3',
      [this.keyHash, scope, Math.floor(sinceMs)],
    );
    return rows[0]?.n ?? 0;
  }

  /** The operations on a connection that is inside a transaction holding the key's lock. */
  private tx(client: PgClient): PgBucketTransaction {
    const key = this.keyHash;
    return {
      pauseKey: async (nowMs, untilMs, restartEmpty) => {
        const row = await this.bucketRow(client);
        const until = Math.max(wholeMs(untilMs), row?.paused_until_ms ?? 0);
        const level = restartEmpty ? { tokens: 0, atMs: until } : this.levelOf(row, wholeMs(nowMs));
        await this.saveBucket(client, level.tokens, level.atMs, until);
      },
      pauseScope: async (scope, untilMs, limit, nowMs) => {
        await client.query(
          `INSERT INTO rate_scope_pauses (key_hash, scope, paused_until_ms) VALUES ($1, $2, $3)
           ON CONFLICT (key_hash, scope) DO UPDATE
             SET paused_until_ms = greatest(rate_scope_pauses.paused_until_ms, excluded.paused_until_ms)`,
          [key, scope, wholeMs(untilMs)],
        );
        if (limit === null) return;
        const live = await client.query<{ sent_at_ms: number }>(
          'SELECT sent_at_ms FROM rate_sends WHERE key_hash = $1 AND scope = $2 AND sent_at_ms > $3 ORDER BY sent_at_ms',
          [key, scope, wholeMs(nowMs) - this.config.windowMs],
        );
        await client.query('DELETE FROM rate_sends WHERE key_hash = $1 AND scope = $2', [key, scope]);
        const drained = drainAfterPause(
          live.rows.map((r) => r.sent_at_ms),
          limit,
          this.config.windowMs,
          wholeMs(untilMs),
        );
        await client.query(
          `INSERT INTO rate_sends (key_hash, scope, sent_at_ms, settled)
           SELECT $1, $2, t, true FROM unnest($3::bigint[]) AS t`,
          [key, scope, drained],
        );
      },
      lowerTokens: async (nowMs, atMost) => {
        const row = await this.bucketRow(client);
        const level = this.levelOf(row, wholeMs(nowMs));
        if (level.tokens <= atMost) return;
        await this.saveBucket(client, atMost, level.atMs, row?.paused_until_ms ?? null);
      },
      spendTokens: async (nowMs, count) => {
        const row = await this.bucketRow(client);
        const level = this.levelOf(row, wholeMs(nowMs));
        await this.saveBucket(
          client,
          Math.max(0, level.tokens - count),
          level.atMs,
          row?.paused_until_ms ?? null,
        );
      },
      settleSend: async (scope, nowMs) => {
        const { rows } = await client.query<{ id: number; sent_at_ms: number }>(
          `SELECT id, sent_at_ms FROM rate_sends WHERE key_hash = $1 AND scope = $2 AND NOT settled
           ORDER BY sent_at_ms, id LIMIT 1`,
          [key, scope],
        );
        const oldest = rows[0];
        if (!oldest) return undefined;
        await client.query('UPDATE rate_sends SET sent_at_ms = $1, settled = true WHERE id = $2', [
          Math.max(oldest.sent_at_ms, wholeMs(nowMs)),
          oldest.id,
        ]);
        return oldest.sent_at_ms;
      },
      sendsSince: (scope, sinceMs) => this.countSends(client, scope, sinceMs),
      markDaySpent: async (nowMs) => {
        if (this.config.perDay === null) return;
        await client.query(
          `INSERT INTO rate_daily_usage (key_hash, day, count) VALUES ($1, $2, $3)
           ON CONFLICT (key_hash, day) DO UPDATE SET count = greatest(rate_daily_usage.count, excluded.count)`,
          [key, utcDay(wholeMs(nowMs)), this.config.perDay],
        );
      },
    };
  }

  /**
   * One transaction holding the key's advisory lock until COMMIT or ROLLBACK. The lock key
   * is a 64-bit hash of the key hash: two keys sharing a lock only wait for each other.
   */
  private locked<T>(fn: (c: PgClient) => Promise<T>): Promise<T> {
    return withTransaction(this.pool, async (c) => {
      await c.query("SELECT pg_advisory_xact_lock(hashtextextended('rate_budget:' || $1, 0))", [
        this.keyHash,
      ]);
      return fn(c);
    });
  }
}

async function applyWrite(tx: PgBucketTransaction, write: BudgetWrite, nowMs: number): Promise<void> {
  switch (write.op) {
    case 'pauseKey':
      await tx.pauseKey(nowMs, write.untilMs, write.restartEmpty);
      break;
    case 'pauseScope':
      await tx.pauseScope(write.scope, write.untilMs, write.limit, nowMs);
      break;
    case 'lowerTokens':
      await tx.lowerTokens(nowMs, write.atMost);
      break;
    case 'spendTokens':
      await tx.spendTokens(nowMs, write.count);
      break;
    case 'markDaySpent':
      await tx.markDaySpent(nowMs);
      break;
  }
}

/**
 * The key's budget on Postgres for the limiter (RateLimiterOptions.budget). The pool is
 * lent, not owned: closing the store leaves it to whoever opened it.
 */
export function createPgBudgetStore(pool: PgPool, keyHash: string, config: SharedBucketConfig): BudgetStore {
  const store = new PgSharedBucketStore(pool, keyHash, config);
  return {
    takeFirst: (clockNow, requests) => store.takeFirst(clockNow, requests),
    react: (query, decide) => store.react(query, decide),
    snapshot: (nowMs) => store.snapshot(nowMs),
    close: async () => {},
  };
}
