/**
 * Crawler visits: one overview request per brand (a custom range over the last 14 whole
 * days), split into the last 7 days vs the 7 before, checked against each channel's
 * drop and recovery levels with that channel's own state (a level alerts on first sight).
 */

import { fetchCrawlerPeriods } from '../alerting/crawler-range.js';
import { detectCrawler } from '../alerts/detect-crawler.js';
import { applyChannelLevels } from './apply-channel-levels.js';
import type { JobDefinition } from './job-definition.js';

export const crawlerJob: JobDefinition = {
  name: 'crawler',
  select: (ctx) => ctx.subscriptions.listActive('alerts'),
  async runBrand(ctx, brand, subs, { nowMs }) {
    const periods = await fetchCrawlerPeriods(ctx.deps.api, brand.id, nowMs, ctx.call);
    // Whole days ending yesterday: the same answer all day, so the digest reuses it.
    await ctx.observations.put(brand.id, 'crawler', periods, nowMs);
    return applyChannelLevels(ctx, subs, nowMs, {
      load: (channelId) => ctx.levels.getCrawler(channelId, brand.id),
      save: (channelId, next) => ctx.levels.putCrawler(channelId, brand.id, next, nowMs),
      detect: (prev, settings) => detectCrawler(prev, periods, settings, brand, nowMs),
    });
  },
};
