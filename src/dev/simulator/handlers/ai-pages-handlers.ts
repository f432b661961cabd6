/**
 * GET /ai-pages and its legacy alias /prism (docs/api.md §4.11).
 */
import { detailShape } from '../http-error.js';
import { brandOf, type Handler, ok } from './handler-context.js';

export const getAiPages: Handler = (ctx) => {
  const brand = brandOf(ctx);
  const { profile } = brand;
  const aiPages = ctx.world.settleAiPagesUsage(brand);
  if (!aiPages.entitled) {
    throw detailShape(
      403,
      'Your plan does not include AI Pages. Upgrade to a plan with the AI Pages entitlement.',
    );
  }
  return ok({
    brand: { id: profile.id, name: profile.name, website: profile.website },
    config: aiPages.config
      ? { ...aiPages.config, features: [...aiPages.config.features], crawlers: [...aiPages.config.crawlers] }
      : null,
    usage: aiPages.usage ? { ...aiPages.usage } : null,
  });
};
