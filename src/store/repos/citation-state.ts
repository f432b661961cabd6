/**
 * CitationStateRepo (citation-state-repo.ts has the contract), for both backends: one row
 * per brand, its state the packed JSON text of citation-state-packing.ts (SQLite text,
 * Postgres jsonb read back as text), so both backends hold the same text and read each
 * other's rows, and the same code unpacks it.
 *
 * Each write is one statement, atomic on its own; inside a caller's transaction (the jobs
 * always call these there, next to the outbox rows) it commits or rolls back with the rest.
 */
import type { CitationState } from '../../alerts/detect-citations.js';
import { packCitationState, unpackCitationState } from '../citation-state-packing.js';
import type { CitationStateRepo } from '../citation-state-repo.js';
import type { RepoContext } from '../repo-context.js';

export function createCitationStateRepo(ctx: RepoContext): CitationStateRepo {
  // The citations job loads and saves each brand's state: prepared.
  const select = ctx.prepare((db, brandId: string) =>
    db.selectFrom('citation_state').select('state').where('brand_id', '=', brandId),
  );
  const upsert = ctx.prepare((db, brandId: string, urlCount: number, state: string, nowMs: number) =>
    db
      .insertInto('citation_state')
      .values({ brand_id: brandId, url_count: urlCount, state, updated_at_ms: nowMs })
      .onConflict((oc) =>
        oc.column('brand_id').doUpdateSet((eb) => ({
          url_count: eb.ref('excluded.url_count'),
          state: eb.ref('excluded.state'),
          updated_at_ms: eb.ref('excluded.updated_at_ms'),
        })),
      ),
  );

  const remove = async (brandId: string): Promise<number> => {
    const r = await ctx
      .db()
      .deleteFrom('citation_state')
      .where('brand_id', '=', brandId)
      .returning('url_count')
      .executeTakeFirst();
    return r?.url_count ?? 0;
  };

  const write = async (brandId: string, state: CitationState, nowMs: number): Promise<void> => {
    if (state.size === 0) {
      await remove(brandId);
      return;
    }
    await upsert(brandId, state.size, ctx.sql.jsonText(packCitationState(state)), nowMs);
  };

  const countOf = async (brandId: string): Promise<number | null> => {
    const r = await ctx
      .db()
      .selectFrom('citation_state')
      .select('url_count')
      .where('brand_id', '=', brandId)
      .executeTakeFirst();
    return r?.url_count ?? null;
  };

  return {
    async load(brandId) {
      const r = (await select(brandId)).rows[0];
      return r ? unpackCitationState(r.state) : new Map();
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
