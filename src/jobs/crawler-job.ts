/**
 * Crawler visits: one overview request per brand (a custom range over the last 14 whole
 * days), split into the last 7 days vs the 7 before. The days are added to the brand's
 * stored history, and each channel judges the week with its own rule (the usual range once
 * the history allows one, else the fixed drop level: detect-crawler-range.ts), settings and
 * state; a level alerts on first sight. A fall also gets the pages that fell most and,
 * when the access check blocks one of the crawlers that fell, that block as its cause
 * (src/use-cases/crawler-fall-extras.ts): at most WHY_CALLS_PER_CRAWLER_RUN more calls per
 * run across all brands. Every API call comes before the writes, which the runner commits
 * LEVEL_BRANDS_PER_COMMIT brands to a transaction (brand-batch.ts).
 */

import type { AlertSettings } from '../alerts/alert-settings.js';
import type { DailyVisits } from '../alerts/crawler-normal-range.js';
import type { CrawlerPeriods, CrawlerState } from '../alerts/detect-crawler.js';
import { detectCrawlerVisits } from '../alerts/detect-crawler-range.js';
import { levelKey } from '../store/channel-detector-state-repo.js';
import { mergeCrawlerHistory } from '../store/crawler-history-repo.js';
import { crawlerFallExtras } from '../use-cases/crawler-fall-extras.js';
import { fetchCrawlerPeriods } from '../use-cases/crawler-periods.js';
import { runBudget } from '../use-cases/fetch-why-data.js';
import { WHY_CALLS_PER_CRAWLER_RUN } from '../use-cases/plan-polling.js';
import { applyChannelLevels } from './apply-channel-levels.js';
import { LEVEL_BRANDS_PER_COMMIT, withBatchSink } from './brand-batch.js';
import type { JobContext } from './job-context.js';
import type { JobDefinition } from './job-definition.js';
import { byBrand, readAhead } from './read-ahead.js';

/** The 14 days of this run's answer, date → visits. */
function daysOf(periods: CrawlerPeriods): Record<string, number> {
  return { ...periods.previous.byDay, ...periods.current.byDay };
}

/** Brands whose states one statement of the read-ahead reads (well inside either backend's parameter limit). */
const READ_AHEAD_CHUNK = 500;

/** A brand's stored history, and the dry run's read of a channel's state for it. */
interface Stored {
  history: DailyVisits;
  load(channelId: string): Promise<CrawlerState | null>;
}

/**
 * Every channel's crawler state and every brand's stored history of the run's brands, read
 * by its `select` (one statement of each per 500 brands: read-ahead.ts) instead of one
 * statement per channel and brand for the dry run that decides whether a fall's extras are
 * fetched, and one per brand for the history. The writes still judge the channels' states
 * as read in their transaction.
 */
const stored = readAhead<Stored>();

async function storedOfAll(ctx: JobContext, brandIds: readonly string[]): Promise<Map<string, Stored>> {
  const states = new Map<string, CrawlerState>();
  const histories = new Map<string, DailyVisits>();
  for (let i = 0; i < brandIds.length; i += READ_AHEAD_CHUNK) {
    const chunk = brandIds.slice(i, i + READ_AHEAD_CHUNK);
    for (const [key, state] of await ctx.levels.crawlerLevelsOf(chunk)) states.set(key, state);
    for (const [id, history] of await ctx.store.crawlerHistory.getMany(chunk)) histories.set(id, history);
  }
  return byBrand(brandIds, (id) => ({
    history: histories.get(id) ?? {},
    load: async (channelId) => states.get(levelKey(channelId, id)) ?? null,
  }));
}

const storedAlone = async (ctx: JobContext, brandId: string): Promise<Stored> => ({
  history: await ctx.store.crawlerHistory.get(brandId),
  load: (channelId) => ctx.levels.getCrawler(channelId, brandId),
});

export const crawlerJob: JobDefinition = {
  name: 'crawler',
  brandsPerCommit: LEVEL_BRANDS_PER_COMMIT,
  async select(ctx) {
    const subs = await ctx.subscriptions.listActive('alerts');
    if (subs.length === 0) return subs;
    stored.keep(ctx, await storedOfAll(ctx, [...new Set(subs.map((s) => s.brandId))]));
    return subs;
  },
  async prepareBrand(ctx, brand, subs, { nowMs }) {
    const own = await stored.take(ctx, brand.id, () => storedAlone(ctx, brand.id));
    const periods = await fetchCrawlerPeriods(ctx.deps.api, brand.id, nowMs, ctx.call);
    const days = daysOf(periods);
    const end = periods.current.end;
    const detect = (history: DailyVisits) => (prev: CrawlerState | null, settings: AlertSettings) =>
      detectCrawlerVisits(prev, { periods, history }, settings, brand, nowMs);
    // The history as it will be written; the extras' calls, before the writes, judge by it.
    // Only this job (one process at a time: its lease) writes the history, so it is
    // written as merged here, not read again in the transaction.
    const history = mergeCrawlerHistory(own.history, days, end);
    const budget = runBudget(ctx, 'crawler', WHY_CALLS_PER_CRAWLER_RUN);
    const w = { api: ctx.deps.api, call: ctx.call, budget, logger: ctx.logger };
    const judge = detect(history);
    const finish = await crawlerFallExtras(
      w,
      brand.id,
      subs,
      periods,
      { load: own.load, detect: judge },
      nowMs,
    );
    // Written by the runner with other brands' in one transaction (brand-batch.ts), where
    // each channel's state is read again: what it detects against is what it commits over.
    return async (batch) => {
      // Whole days ending yesterday: the same answer all day, so the digest reuses it.
      batch.observe({ brandId: brand.id, source: 'crawler', data: periods, observedAtMs: nowMs });
      batch.saveHistory({ brandId: brand.id, history, nowMs });
      return applyChannelLevels({ sink: withBatchSink(ctx.sink, batch) }, subs, nowMs, {
        load: (channelId) => batch.crawlerLevel(channelId, brand.id),
        save: (channelId, state) =>
          batch.saveLevel({ channelId, brandId: brand.id, detector: 'crawler', state, nowMs }),
        detect: (prev, settings) => {
          const d = judge(prev, settings);
          return { ...d, alerts: finish(d.alerts) };
        },
      });
    };
  },
};
