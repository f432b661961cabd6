/**
 * Crawler visits: one overview request per brand (a custom range over the last 14 whole
 * days), split into the last 7 days vs the 7 before. The days are added to the brand's
 * stored history, and each channel judges the week with its own rule (the usual range once
 * the history allows one, else the fixed drop level: detect-crawler-range.ts), settings and
 * state; a level alerts on first sight. A fall also gets the pages that fell most and,
 * when the access check blocks one of the crawlers that fell, that block as its cause
 * (src/use-cases/crawler-fall-extras.ts): at most WHY_CALLS_PER_CRAWLER_RUN more calls per
 * run across all brands.
 */

import type { CrawlerPeriods } from '../alerts/detect-crawler.js';
import { detectCrawlerVisits } from '../alerts/detect-crawler-range.js';
import { crawlerFallExtras } from '../use-cases/crawler-fall-extras.js';
import { fetchCrawlerPeriods } from '../use-cases/crawler-periods.js';
import { runBudget } from '../use-cases/fetch-why-data.js';
import { WHY_CALLS_PER_CRAWLER_RUN } from '../use-cases/plan-polling.js';
import { applyChannelLevels } from './apply-channel-levels.js';
import type { JobDefinition } from './job-definition.js';

/** The 14 days of this run's answer, date → visits. */
function daysOf(periods: CrawlerPeriods): Record<string, number> {
  return { ...periods.previous.byDay, ...periods.current.byDay };
}

export const crawlerJob: JobDefinition = {
  name: 'crawler',
  select: (ctx) => ctx.subscriptions.listActive('alerts'),
  async runBrand(ctx, brand, subs, { nowMs }) {
    const periods = await fetchCrawlerPeriods(ctx.deps.api, brand.id, nowMs, ctx.call);
    // Whole days ending yesterday: the same answer all day, so the digest reuses it.
    await ctx.observations.put(brand.id, 'crawler', periods, nowMs);
    const history = await ctx.store.crawlerHistory.record(
      brand.id,
      daysOf(periods),
      periods.current.end,
      nowMs,
    );
    const level = {
      load: (channelId: string) => ctx.levels.getCrawler(channelId, brand.id),
      detect: (
        prev: Parameters<typeof detectCrawlerVisits>[0],
        settings: Parameters<typeof detectCrawlerVisits>[2],
      ) => detectCrawlerVisits(prev, { periods, history }, settings, brand, nowMs),
    };
    const budget = runBudget(ctx, 'crawler', WHY_CALLS_PER_CRAWLER_RUN);
    const w = { api: ctx.deps.api, call: ctx.call, budget, logger: ctx.logger };
    const finish = await crawlerFallExtras(w, brand.id, subs, periods, level, nowMs);
    return applyChannelLevels(ctx, subs, nowMs, {
      load: level.load,
      save: (channelId, next) => ctx.levels.putCrawler(channelId, brand.id, next, nowMs),
      detect: (prev, settings) => {
        const d = level.detect(prev, settings);
        return { ...d, alerts: finish(d.alerts) };
      },
    });
  },
};
