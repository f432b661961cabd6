/**
 * GET /get-citations (docs/api.md §4.8): parameters are validated against their bounds
 * whichever view is asked for, then the view is computed from the snapshots.
 */
import {
  type CitationFilter,
  feedView,
  heatmapView,
  historyView,
  listView,
  queriesView,
  sourcesView,
  type ViewContext,
} from '../citations/citation-views.js';
import { detailShape, errorsShape, invalidParam } from '../http-error.js';
import { enumParam, intParam, isUuid, listParam, stringParam } from '../params.js';
import { brandOf, type Handler, ok } from './handler-context.js';

const VIEWS = ['list', 'history', 'queries', 'sources', 'feed', 'heatmap'] as const;

export const getCitations: Handler = (ctx) => {
  const brand = brandOf(ctx);
  const { input } = ctx;
  const view = enumParam(input, 'view', VIEWS, 'list');
  const limit = intParam(input, 'limit', { min: 1, max: 500, default: 100 });
  const offset = intParam(input, 'offset', { min: 0, default: 0 });
  const days = intParam(input, 'days', { min: 7, max: 365, default: 30 });
  const daysBack = intParam(input, 'days_back', { min: 1, max: 30, default: 7 });
  const tagIds = listParam(input, 'tag_ids');
  if (tagIds.some((t) => !isUuid(t))) throw invalidParam('tag_ids', 'must be comma-separated tag UUIDs');
  const domain = stringParam(input, 'domain')?.trim() || undefined;
  const filter: CitationFilter = {
    domain,
    tagIds,
    promptText: stringParam(input, 'prompt_text')?.trim() || undefined,
  };
  const vc: ViewContext = {
    profile: brand.profile,
    book: brand.citations,
    dayOf: (i) => ctx.world.dayOfSnapshot(i),
  };
  switch (view) {
    case 'list':
      return ok(listView(vc, filter, limit, offset));
    case 'history':
      return ok(historyView(vc, days));
    case 'queries':
      return ok(queriesView(vc, filter));
    case 'sources': {
      if (!domain) {
        throw errorsShape(400, 'domain is required for view=sources', [
          { param: 'domain', message: 'pass an exact domain such as www.g2.com' },
        ]);
      }
      const result = sourcesView(vc, domain, limit, offset);
      if (!result)
        throw detailShape(404, { code: 'not_found', message: `No citations found for domain ${domain}` });
      return ok(result);
    }
    case 'feed':
      return ok(feedView(vc, daysBack, limit, offset));
    case 'heatmap':
      return ok(heatmapView(vc, filter));
  }
};
