/**
 * PollObservationsRepo on Postgres (poll-observations-repo.ts has the contract): one row
 * per brand and source, replaced by one INSERT … ON CONFLICT. The data is what the API
 * answered, so a NUL in it is replaced (pg-text.ts) rather than failing the poll.
 */
import type { PollObservationsRepo, PollSource } from '../poll-observations-repo.js';
import type { PgPool } from './create-pool.js';
import { pgJson, pgText } from './pg-text.js';
import { pgExecutor } from './pg-transaction.js';

export function createPgPollObservationsRepo(pool: PgPool): PollObservationsRepo {
  const db = () => pgExecutor(pool);
  return {
    async get<T>(brandId: string, source: PollSource) {
      const { rows } = await db().query<{ observed_at_ms: number; data: T }>(
        'SELECT observed_at_ms, data FROM poll_observations WHERE brand_id = $1 AND source = $2',
        [pgText(brandId), source],
      );
      const row = rows[0];
      return row ? { observedAtMs: row.observed_at_ms, data: row.data } : null;
    },
    async put(brandId, source, data, observedAtMs) {
      await db().query(
        `INSERT INTO poll_observations (brand_id, source, observed_at_ms, data) VALUES ($1, $2, $3, $4::jsonb)
         ON CONFLICT (brand_id, source) DO UPDATE
           SET observed_at_ms = EXCLUDED.observed_at_ms, data = EXCLUDED.data`,
        [pgText(brandId), source, observedAtMs, pgJson(data)],
      );
    },
    async numbers(source, field) {
      // SQLite's `$.a.b` path as a jsonb path array; only JSON numbers count, as there.
      const { rows } = await db().query<{ n: number }>(
        `SELECT (data #>> $2::text[])::double precision AS n FROM poll_observations
         WHERE source = $1 AND jsonb_typeof(data #> $2::text[]) = 'number'`,
        [source, field.split('.')],
      );
      return rows.map((r) => r.n);
    },
  };
}
