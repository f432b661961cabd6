/**
 * HandledRequestsRepo on Postgres (handled-requests-repo.ts has the contract). One
 * statement decides: the insert, or the update of a key last accepted before the window,
 * returns the row; a key accepted within the window returns none. ON CONFLICT locks the
 * row, so two replicas receiving the same redelivery cannot both see it as new.
 */
import type { HandledRequestsRepo } from '../handled-requests-repo.js';
import type { PgPool } from './create-pool.js';
import { pgExecutor } from './pg-transaction.js';

export function createPgHandledRequestsRepo(pool: PgPool): HandledRequestsRepo {
  return {
    async remember(key, nowMs, keepMs) {
      const { rowCount } = await pgExecutor(pool).query(
        `INSERT INTO handled_requests (request_key, handled_at_ms) VALUES ($1, $2)
         ON CONFLICT (request_key) DO UPDATE SET handled_at_ms = EXCLUDED.handled_at_ms
           WHERE handled_requests.handled_at_ms < $3
         RETURNING 1`,
        [key, nowMs, nowMs - keepMs],
      );
      return rowCount === 0;
    },
    async purgeBefore(cutoffMs) {
      const { rowCount } = await pgExecutor(pool).query(
        'DELETE FROM handled_requests WHERE handled_at_ms < $1',
        [cutoffMs],
      );
      return rowCount ?? 0;
    },
  };
}
