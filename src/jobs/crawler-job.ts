/**
 * Crawler visits: one overview request per brand (a custom range over the last 14 whole
 * days), split into the last 7 days vs the 7 before, checked against each channel's
 * drop and recovery levels with that channel's own state (a level alerts on first sight).
 */
import { detectCrawler, periodsFromOverview } from '../alerts/detect-crawler.js';
import { transaction } from '../store/transaction.js';
import { crawlerRange } from './crawler-range.js';
import { addCounts, enqueueAlerts, noCounts } from './enqueue-alerts.js';
import type { JobDefinition } from './job-definition.js';

export const crawlerJob: JobDefinition = {
  name: 'crawler',
  select: (ctx) => ctx.subscriptions.listActive('alerts'),
  async runBrand(ctx, brand, subs, { nowMs }) {
    const range = crawlerRange(nowMs);
    const overview = await ctx.deps.api.getCrawlerOverview(
      { brandId: brand.id, rangePreset: 'custom', startDate: range.startDate, endDate: range.endDate },
      ctx.call,
    );
    const periods = periodsFromOverview(overview, range.endDate);
    return transaction(ctx.db, () => {
      const counts = noCounts();
      for (const sub of subs) {
        const d = detectCrawler(
          ctx.levels.getCrawler(sub.channelId, brand.id),
          periods,
          sub.settings,
          brand,
          nowMs,
        );
        ctx.levels.putCrawler(sub.channelId, brand.id, d.next, nowMs);
        addCounts(counts, enqueueAlerts(ctx.sink, sub, d.alerts, [], nowMs));
      }
      return counts;
    });
  },
};
