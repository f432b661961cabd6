/**
 * App Home: on app_home_opened, the dashboard (home-view.ts), published fresh each time.
 * Guests get a polite note instead of brand data; a failure (key rejected, service down)
 * is a short explanation on the tab, not a blank page.
 *
 * What an opening costs the API key: the brand list through the shared brand cache (one
 * GET /get-brands per cache lifetime, shared with every command), and AI Pages usage for
 * the brands shown in detail, each remembered for a minute (load-ai-pages-glance.ts).
 * Subscriptions, alerts, acknowledgements, snoozes, the quota and the 7-day trend bars (the
 * last digest chart's figures, load-digest-trends.ts) are local reads.
 */
import type { Brand } from '../../../api/schemas/index.js';
import { explainError } from '../../../messages/explain-error.js';
import { mrkdwn } from '../../../messages/mrkdwn.js';
import { UserError, UserErrorCode } from '../../../messages/user-error.js';
import type { HomeContext, HomeHandler } from '../../events/home-handler.js';
import {
  brandsHomeView,
  HOME_MAX_DETAILED,
  noticeHomeView,
  type QuotaGlance,
  sortForHome,
} from './home-view.js';
import { createAiPagesGlanceLoader } from './load-ai-pages-glance.js';
import { type BrandActivity, loadBrandActivity } from './load-brand-activity.js';
import { type DigestTrend, loadDigestTrends } from './load-digest-trends.js';

const GUEST_HOME_TEXT = mrkdwn`Hello! Brand data here is for workspace members, and guest accounts cannot see it. If you need it, ask someone on your team to share a report in a channel.`;

function createBrandsHome(loader = createAiPagesGlanceLoader()): HomeHandler {
  return {
    name: 'brands',
    async run(ctx) {
      try {
        await ctx.ensureMember();
      } catch (err) {
        const text =
          err instanceof UserError && err.code === UserErrorCode.Guest
            ? GUEST_HOME_TEXT
            : explainError(err).message;
        await ctx.publish(noticeHomeView(text));
        return;
      }
      let brands: Brand[];
      try {
        brands = await ctx.deps.brandCache.list();
      } catch (err) {
        await ctx.publish(noticeHomeView(mrkdwn`:warning: ${explainError(err).message}`));
        return;
      }
      const nowMs = ctx.deps.clock.now();
      const activity = await readActivity(ctx, brands, nowMs);
      const watched = new Set(
        [...activity].filter(([, a]) => a.subscriptions.length > 0).map(([brandId]) => brandId),
      );
      const shown = sortForHome(brands, watched);
      const detailed = shown.slice(0, HOME_MAX_DETAILED);
      const usage = await loader.load(ctx.deps, detailed);
      const trends = await readTrends(ctx, detailed);
      const glances = shown.map((brand, i) => ({
        brand,
        aiPages: i < detailed.length ? usage[i]! : ({ status: 'not_loaded' } as const),
        ...(activity.has(brand.id) ? { activity: activity.get(brand.id)! } : {}),
        ...(trends.has(brand.id) ? { trend: trends.get(brand.id)! } : {}),
      }));
      await ctx.publish(
        brandsHomeView(glances, ctx.deps.clock.now(), {
          quota: readQuota(ctx),
          defaultTimezone: ctx.deps.config.defaultTimezone,
        }),
      );
    },
  };
}

/** The database is local and should answer; if it does not, the tab still shows the brands. */
async function readActivity(
  ctx: HomeContext,
  brands: readonly Brand[],
  nowMs: number,
): Promise<Map<string, BrandActivity>> {
  try {
    return await loadBrandActivity(
      ctx.deps.store,
      brands.map((b) => b.id),
      nowMs,
    );
  } catch (err) {
    ctx.deps.logger.warn({ err }, 'App Home: subscriptions and alerts unavailable');
    return new Map();
  }
}

/** Like the activity: without the trends the tab still shows everything else. */
async function readTrends(ctx: HomeContext, brands: readonly Brand[]): Promise<Map<string, DigestTrend>> {
  try {
    return await loadDigestTrends(
      ctx.deps.store,
      brands.map((b) => b.id),
    );
  } catch (err) {
    ctx.deps.logger.warn({ err }, 'App Home: digest trends unavailable');
    return new Map();
  }
}

/** What `/visibility status` shows as "API usage today": the limiter's shared daily count. */
function readQuota(ctx: HomeContext): QuotaGlance | null {
  try {
    return ctx.deps.api.limiterState();
  } catch (err) {
    ctx.deps.logger.warn({ err }, 'App Home: API quota unavailable');
    return null;
  }
}

export const brandsHome = createBrandsHome();
