/**
 * ModelCitationStateRepo (model-citation-state-repo.ts has the contract), for both backends:
 * one JSON row per brand, replaced by one INSERT … ON CONFLICT. A row that does not parse
 * (written by hand, cut short) reads as the initial state: the rule then relearns the
 * models' days rather than failing the brand's citations run.
 */
import { INITIAL_MODEL_STATE, type ModelCitationState } from '../../alerts/detect-model-citations.js';
import type { ModelCitationStateRepo } from '../model-citation-state-repo.js';
import type { RepoContext } from '../repo-context.js';

function parse(text: string): ModelCitationState {
  try {
    const v = JSON.parse(text) as Partial<ModelCitationState> | null;
    if (!v || !Array.isArray(v.days)) return INITIAL_MODEL_STATE;
    return {
      days: v.days,
      stopped: v.stopped ?? {},
      episodes: v.episodes ?? {},
      cites: v.cites ?? {},
    };
  } catch {
    return INITIAL_MODEL_STATE;
  }
}

export function createModelCitationStateRepo(ctx: RepoContext): ModelCitationStateRepo {
  return {
    async load(brandId) {
      const r = await ctx
        .db()
        .selectFrom('model_citation_state')
        .select('state')
        .where('brand_id', '=', brandId)
        .executeTakeFirst();
      return r ? parse(r.state) : INITIAL_MODEL_STATE;
    },
    async save(brandId, state, nowMs) {
      await ctx
        .db()
        .insertInto('model_citation_state')
        .values({ brand_id: brandId, state: ctx.sql.json(state), updated_at_ms: nowMs })
        .onConflict((oc) =>
          oc.column('brand_id').doUpdateSet((eb) => ({
            state: eb.ref('excluded.state'),
            updated_at_ms: eb.ref('excluded.updated_at_ms'),
          })),
        )
        .execute();
    },
    async forget(brandId) {
      await ctx.db().deleteFrom('model_citation_state').where('brand_id', '=', brandId).execute();
    },
  };
}
