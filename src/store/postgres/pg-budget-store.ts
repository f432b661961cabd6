/**
 * The key's rate budget on Postgres, for replicas on several hosts: the SQLite store's
 * counterpart (store/sqlite-budget-store.ts) with the same pure decisions
 * (api/limiter/decide-take.ts, decide-reaction.ts); only the storage differs.
 *
 * A grant decision is one transaction that first takes a transaction-level advisory lock
 * on the key, then reads in one statement and writes in one: every process deciding for
 * the same key queues on that lock, so two never spend the same token. (Row locks alone
 * would not do: the first grant of a key has no row to lock yet, and a window is a set of
 * rows.) The time is read once the lock is held, so a decision never works from a time
 * older than the last one committed.
 *
 * A reaction reads and settles without the lock: a settle only moves this key's oldest
 * send in flight later, which a concurrent decision may see or not (either is an order the
 * two could have happened in), and the write never moves a send earlier even if another
 * process moved it since the read. Most responses change nothing else, so most reactions
 * never queue behind the replicas' grant decisions. When the decision writes (a pause, a
 * lower bucket), the reaction runs again on a fresh read in one transaction holding the
 * lock, with the writes already decided.
 */
import { type BudgetChanges, isUnchanged } from '../../api/limiter/budget-changes.js';
import {
  type BudgetRead,
  type BudgetState,
  type SendRow,
  snapshotOf,
  snapshotRead,
} from '../../api/limiter/budget-state.js';
import type { BudgetStore, SharedBucketConfig } from '../../api/limiter/budget-store.js';
import { decideReaction, reactionRead } from '../../api/limiter/decide-reaction.js';
import { decideTake, takeRead } from '../../api/limiter/decide-take.js';
import { utcDay } from '../../utc-days.js';
import { type PgClient, type PgPool, withTransaction } from './create-pool.js';

/**
 * Times are stored as whole ms (bigint), SQLite's columns hold what they are given. The
 * limiter's clocks give whole ms; a fraction is rounded up (a later send, a longer pause),
 * never towards an earlier grant.
 */
const wholeMs = (ms: number) => Math.ceil(ms);

/**
 * The key's budget on Postgres for the limiter (RateLimiterOptions.budget). The pool is
 * lent, not owned: closing the store leaves it to whoever opened it.
 */
export function createPgBudgetStore(pool: PgPool, keyHash: string, config: SharedBucketConfig): BudgetStore {
  const rows = budgetRows(keyHash);
  /** One transaction holding the key's advisory lock until COMMIT or ROLLBACK. */
  const locked = <T>(fn: (c: PgClient) => Promise<T>): Promise<T> =>
    withTransaction(pool, async (c) => {
      // A 64-bit hash of the key hash: two keys sharing a lock only wait for each other.
      await c.query("SELECT pg_advisory_xact_lock(hashtextextended('rate_budget:' || $1, 0))", [keyHash]);
      return fn(c);
    });

  return {
    takeFirst: (clockNow, requests) =>
      locked(async (c) => {
        const nowMs = wholeMs(clockNow());
        const state = await rows.read(c, takeRead(config, nowMs, requests));
        const decision = decideTake(state, config, nowMs, requests);
        await rows.write(c, decision.changes);
        return decision.result;
      }),
    async react(asked, decide) {
      const query = { ...asked, nowMs: wholeMs(asked.nowMs) };
      const read = reactionRead(config, query);
      const first = decideReaction(await rows.read(pool, read), config, query, decide);
      if (first.result.length === 0) return rows.write(pool, first.changes);
      await locked(async (c) => {
        const again = decideReaction(await rows.read(c, read), config, query, () => first.result);
        await rows.write(c, again.changes);
      });
    },
    async snapshot(at) {
      const nowMs = wholeMs(at);
      return snapshotOf(await rows.read(pool, snapshotRead(nowMs)), config, nowMs);
    },
    close: async () => {},
  };
}

type Queryable = PgPool | PgClient;

interface StateRow {
  bucket: { tokens: number; atMs: number; pausedUntilMs: number | null } | null;
  used: number | null;
  pauses: [string, number][];
  /** [scope, id, at, settled], ordered by time then id */
  sends: [string, number, number, boolean][];
}

/** The budget's rows of one key: what a decision reads (one statement), its changes (one). */
function budgetRows(keyHash: string) {
  return {
    async read(q: Queryable, r: BudgetRead): Promise<BudgetState> {
      const day = utcDay(r.nowMs);
      const { rows } = await q.query<StateRow>({ name: 'rate_budget_read', text: READ_STATE }, [
        keyHash,
        day,
        r.sendScopes,
        Math.floor(r.sendsAfterMs),
        r.inFlightScopes,
      ]);
      const state = rows[0]!;
      const sends = new Map<string, { rows: SendRow[] }>();
      for (const [scope, id, atMs, settled] of state.sends) {
        const log = sends.get(scope) ?? sends.set(scope, { rows: [] }).get(scope)!;
        log.rows.push({ id, atMs, settled });
      }
      return {
        bucket: state.bucket,
        daily: { day, count: state.used ?? 0 },
        pauses: new Map(state.pauses),
        sends,
      };
    },
    async write(q: Queryable, c: BudgetChanges): Promise<void> {
      if (isUnchanged(c)) return;
      await q.query({ name: 'rate_budget_write', text: WRITE_CHANGES }, [
        keyHash,
        c.bucket?.tokens ?? null,
        c.bucket ? wholeMs(c.bucket.atMs) : null,
        c.bucket?.pausedUntilMs == null ? null : wholeMs(c.bucket.pausedUntilMs),
        c.daily?.day ?? null,
        c.daily?.count ?? null,
        c.daily?.dropEarlierDays ? c.daily.day : null,
        c.pauses.map(([scope]) => scope),
        c.pauses.map(([, until]) => wholeMs(until)),
        c.settles.map((s) => s.id),
        c.settles.map((s) => wholeMs(s.atMs)),
        c.drops.map((d) => d.scope),
        // Rounded down: a fraction never drops a send the decision kept.
        c.drops.map((d) => Math.floor(d.throughMs)),
        c.adds.map((a) => a.scope),
        c.adds.map((a) => wholeMs(a.atMs)),
        c.adds.map((a) => a.settled),
      ]);
    },
  };
}

/**
 * The bucket, the day's count, the pauses, and the sends asked for: those after $4 of the
 * scopes $3 and the oldest in flight of the scopes $5 (however old).
 */
const READ_STATE = `
  SELECT
    (SELECT json_build_object('tokens', tokens, 'atMs', updated_at_ms, 'pausedUntilMs', paused_until_ms)
       FROM rate_buckets WHERE key_hash = $1) AS bucket,
    (SELECT count FROM rate_daily_usage WHERE key_hash = $1 AND day = $2) AS used,
    (SELECT coalesce(json_agg(json_build_array(scope, paused_until_ms)), '[]')
       FROM rate_scope_pauses WHERE key_hash = $1) AS pauses,
    (SELECT coalesce(json_agg(json_build_array(scope, id, sent_at_ms, settled) ORDER BY sent_at_ms, id), '[]')
       FROM (SELECT scope, id, sent_at_ms, settled FROM rate_sends
              WHERE key_hash = $1 AND scope = ANY($3) AND sent_at_ms > $4
             UNION
             (SELECT DISTINCT ON (scope) scope, id, sent_at_ms, settled FROM rate_sends
               WHERE key_hash = $1 AND scope = ANY($5) AND NOT settled
               ORDER BY scope, sent_at_ms, id)) AS asked) AS sends`;

/**
 * Every change of a decision in one statement (budget-changes.ts: no row is touched twice,
 * as the parts run on one snapshot). A settle never moves a send earlier: a reaction's
 * settle is decided without the key's lock.
 */
const WRITE_CHANGES = `
  WITH bucket AS (
    INSERT INTO rate_buckets (key_hash, tokens, updated_at_ms, paused_until_ms)
    SELECT $1, $2, $3, $4 WHERE $2::float8 IS NOT NULL
    ON CONFLICT (key_hash) DO UPDATE SET tokens = excluded.tokens,
      updated_at_ms = excluded.updated_at_ms, paused_until_ms = excluded.paused_until_ms
  ), daily AS (
    INSERT INTO rate_daily_usage (key_hash, day, count) SELECT $1, $5, $6 WHERE $5::text IS NOT NULL
    ON CONFLICT (key_hash, day) DO UPDATE SET count = excluded.count
  ), earlier_days AS (
    DELETE FROM rate_daily_usage WHERE key_hash = $1 AND day < $7
  ), pauses AS (
    INSERT INTO rate_scope_pauses (key_hash, scope, paused_until_ms)
    SELECT $1, scope, until_ms FROM unnest($8::text[], $9::bigint[]) AS p(scope, until_ms)
    ON CONFLICT (key_hash, scope) DO UPDATE SET paused_until_ms = excluded.paused_until_ms
  ), settled AS (
    UPDATE rate_sends AS s SET sent_at_ms = greatest(s.sent_at_ms, v.at_ms), settled = true
      FROM unnest($10::bigint[], $11::bigint[]) AS v(id, at_ms) WHERE s.key_hash = $1 AND s.id = v.id
  ), dropped AS (
    DELETE FROM rate_sends AS s USING unnest($12::text[], $13::bigint[]) AS d(scope, through_ms)
     WHERE s.key_hash = $1 AND s.scope = d.scope AND s.sent_at_ms <= d.through_ms
  )
  INSERT INTO rate_sends (key_hash, scope, sent_at_ms, settled)
  SELECT $1, scope, at_ms, settled FROM unnest($14::text[], $15::bigint[], $16::boolean[]) AS a(scope, at_ms, settled)`;
