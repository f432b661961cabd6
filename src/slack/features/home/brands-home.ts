/**
 * App Home: on app_home_opened, the brands at a glance (views/home-view.ts), published
 * fresh each time. Guests get a polite note instead of brand data; a failure (key
 * rejected, service down) is a short explanation on the tab, not a blank page.
 */
import type { Brand } from '../../../api/schemas/index.js';
import { mrkdwn } from '../../../messages/mrkdwn.js';
import { UserError } from '../../../messages/user-error.js';
import { userFacingError } from '../../../messages/user-facing-error.js';
import type { HomeHandler } from '../../events/home-handler.js';
import { brandsHomeView, HOME_MAX_DETAILED, noticeHomeView, sortForHome } from './home-view.js';
import { createAiPagesGlanceLoader } from './load-ai-pages-glance.js';

export const GUEST_HOME_TEXT = mrkdwn`Hello! Brand data here is for workspace members, and guest accounts cannot see it. If you need it, ask someone on your team to share a report in a channel.`;

export function createBrandsHome(loader = createAiPagesGlanceLoader()): HomeHandler {
  return {
    name: 'brands',
    async run(ctx) {
      try {
        await ctx.ensureMember();
      } catch (err) {
        const text =
          err instanceof UserError && err.code === 'guest' ? GUEST_HOME_TEXT : userFacingError(err).message;
        await ctx.publish(noticeHomeView(text));
        return;
      }
      let brands: Brand[];
      try {
        brands = await ctx.deps.brandCache.list({ lane: 'interactive' });
      } catch (err) {
        await ctx.publish(noticeHomeView(mrkdwn`:warning: ${userFacingError(err).message}`));
        return;
      }
      const shown = sortForHome(brands);
      const detailed = shown.slice(0, HOME_MAX_DETAILED);
      const usage = await loader.load(ctx.deps, detailed);
      const glances = shown.map((brand, i) => ({
        brand,
        aiPages: i < detailed.length ? usage[i]! : ({ status: 'not_loaded' } as const),
      }));
      await ctx.publish(brandsHomeView(glances, ctx.deps.clock.now()));
    },
  };
}

export const brandsHome = createBrandsHome();
