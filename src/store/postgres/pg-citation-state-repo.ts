/**
 * CitationStateRepo on Postgres (citation-state-repo.ts has the contract): one row per
 * brand, its state the packed text of citation-state-packing.ts in the jsonb column the
 * schema gives it, so both backends hold the same text and read each other's rows. The
 * state is read back as text (`state::text`) and unpacked by the same code as on SQLite;
 * jsonb keeps array order and every number's digits, so nothing changes on the way.
 *
 * Each write is one statement, atomic on its own; inside a caller's transaction (the jobs
 * always call these there, next to the outbox rows) it commits or rolls back with the rest.
 */
import type { CitationState } from '../../alerts/detect-citations.js';
import { packCitationState, unpackCitationState } from '../citation-state-packing.js';
import type { CitationStateRepo } from '../citation-state-repo.js';
import type { PgPool } from './create-pool.js';
import { pgJsonText, pgText } from './pg-text.js';
import { pgExecutor } from './pg-transaction.js';

export function createPgCitationStateRepo(pool: PgPool): CitationStateRepo {
  const db = () => pgExecutor(pool);

  const remove = async (brandId: string): Promise<number> => {
    const { rows } = await db().query<{ url_count: number }>(
      'DELETE FROM citation_state WHERE brand_id = $1 RETURNING url_count',
      [pgText(brandId)],
    );
    return rows[0]?.url_count ?? 0;
  };

  const write = async (brandId: string, state: CitationState, nowMs: number): Promise<void> => {
    if (state.size === 0) {
      await remove(brandId);
      return;
    }
    // URLs and competitor names come from the API: one with a NUL must not fail the job.
    await db().query(
      `INSERT INTO citation_state (brand_id, url_count, state, updated_at_ms) VALUES ($1, $2, $3::jsonb, $4)
       ON CONFLICT (brand_id) DO UPDATE SET
         url_count = EXCLUDED.url_count, state = EXCLUDED.state, updated_at_ms = EXCLUDED.updated_at_ms`,
      [pgText(brandId), state.size, pgJsonText(packCitationState(state)), nowMs],
    );
  };

  const countOf = async (brandId: string): Promise<number | null> => {
    const { rows } = await db().query<{ url_count: number }>(
      'SELECT url_count FROM citation_state WHERE brand_id = $1',
      [pgText(brandId)],
    );
    return rows[0]?.url_count ?? null;
  };

  return {
    async load(brandId) {
      const { rows } = await db().query<{ state: string }>(
        'SELECT state::text AS state FROM citation_state WHERE brand_id = $1',
        [pgText(brandId)],
      );
      return rows[0] ? unpackCitationState(rows[0].state) : new Map();
    },
    async save(brandId, state, nowMs, urls) {
      let n = state.size;
      if (urls !== undefined) {
        n = 0;
        for (const url of urls) if (state.has(url)) n += 1;
      }
      if (n > 0) await write(brandId, state, nowMs);
      return n;
    },
    replace: write,
    has: async (brandId) => (await countOf(brandId)) !== null,
    remove,
    count: async (brandId) => (await countOf(brandId)) ?? 0,
  };
}
