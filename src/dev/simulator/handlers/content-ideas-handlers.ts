/**
 * GET and POST /get-content-ideas (docs/api.md §4.1, §4.2, §3 generation state machine).
 * Generation runs "in the background" for generationMs; it is settled lazily on the next
 * request, so a test's fake clock drives it without timers.
 */
import { detailShape, invalidParam } from '../http-error.js';
import { enumParam, intParam, requiredString } from '../params.js';
import { brandOf, type Handler, ok } from './handler-context.js';

const STATUSES = ['active', 'dismissed', 'implemented'] as const;

export const getContentIdeas: Handler = (ctx) => {
  const brand = brandOf(ctx);
  const limit = intParam(ctx.input, 'limit', { min: 1, max: 200, default: 50 });
  const offset = intParam(ctx.input, 'offset', { min: 0, default: 0 });
  const status = enumParam(ctx.input, 'status', [...STATUSES, 'all'] as const, 'all');
  const state = ctx.world.settleIdeas(brand);
  const matching = status === 'all' ? state.ideas : state.ideas.filter((i) => i.status === status);
  const progress =
    state.status === 'generating' && state.startedAt !== null
      ? Math.min(99, Math.floor(((ctx.now - state.startedAt) / ctx.world.generationMs) * 100))
      : 100;
  return ok({
    ideas: matching.slice(offset, offset + limit),
    pagination: { total: matching.length, limit, offset, has_more: offset + limit < matching.length },
    meta: {
      generated_at: new Date(state.generatedAt).toISOString(),
      generation_status: state.status,
      generation_progress: progress,
      total_opportunities: state.ideas.length,
    },
  });
};

export const refreshContentIdeas: Handler = (ctx) => {
  const brand = brandOf(ctx);
  const action = requiredString(ctx.input, 'action');
  if (action !== 'refresh') throw invalidParam('action', 'must be refresh');
  if (ctx.world.startGeneration(brand)) {
    return ok({
      status: 'generating',
      message: `Generating content ideas for ${brand.profile.name}. Check meta.generation_status on GET /get-content-ideas.`,
    });
  }
  const message = `Content ideas for ${brand.profile.name} are already being generated; no new job was started.`;
  // Deployments differ: some answer 200 with the status, some 409 (both name already_generating).
  if (ctx.options.alreadyGeneratingAs === 'conflict')
    throw detailShape(409, { code: 'already_generating', message });
  return ok({ status: 'already_generating', message });
};
