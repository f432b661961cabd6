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
import { LEVEL_BRANDS_PER_COMMIT, withBatchSnoozes } from './brand-batch.js';
import type { JobContext } from './job-context.js';
import type { JobDefinition } from './job-definition.js';

/** The 14 days of this run's answer, date → visits. */
function daysOf(periods: CrawlerPeriods): Record<string, number> {
  return { ...periods.previous.byDay, ...periods.current.byDay };
}

/** Brands whose states one statement of the read-ahead reads (well inside either backend's parameter limit). */
const READ_AHEAD_CHUNK = 500;

/**
 * Every channel's crawler state of the run's brands, read by its `select` (one statement
 * per 500 brands) for the dry run that decides whether a fall's extras are fetched,
 * instead of one statement per channel and brand. Only this job writes these states,
 * under its lease; the writes still judge against the states read in their transaction.
 */
const readAhead = new WeakMap<JobContext, { brands: Set<string>; states: Map<string, CrawlerState> }>();

/** The dry run's state of a channel for `brandId`: from the read-ahead when the run selected it. */
function dryRunLoad(ctx: JobContext, brandId: string): (channelId: string) => Promise<CrawlerState | null> {
  const ahead = readAhead.get(ctx);
  if (!ahead?.brands.delete(brandId)) return (channelId) => ctx.levels.getCrawler(channelId, brandId);
  const { states } = ahead;
  return async (channelId) => states.get(levelKey(channelId, brandId)) ?? null;
}

export const crawlerJob: JobDefinition = {
  name: 'crawler',
  brandsPerCommit: LEVEL_BRANDS_PER_COMMIT,
  async select(ctx) {
    const subs = await ctx.subscriptions.listActive('alerts');
    const brands = new Set(subs.map((s) => s.brandId));
    const ids = [...brands];
    const states = new Map<string, CrawlerState>();
    for (let i = 0; i < ids.length; i += READ_AHEAD_CHUNK) {
      const chunk = await ctx.levels.crawlerLevelsOf(ids.slice(i, i + READ_AHEAD_CHUNK));
      for (const [key, state] of chunk) states.set(key, state);
    }
    readAhead.set(ctx, { brands, states });
    return subs;
  },
  async prepareBrand(ctx, brand, subs, { nowMs }) {
    const load = dryRunLoad(ctx, brand.id);
    const periods = await fetchCrawlerPeriods(ctx.deps.api, brand.id, nowMs, ctx.call);
    const days = daysOf(periods);
    const end = periods.current.end;
    const detect = (history: DailyVisits) => (prev: CrawlerState | null, settings: AlertSettings) =>
      detectCrawlerVisits(prev, { periods, history }, settings, brand, nowMs);
    // The history as it will be written; the extras' calls, before the writes, judge by it.
    // Only this job (one process at a time: its lease) writes the history, so it is
    // written as merged here, not read again in the transaction.
    const history = mergeCrawlerHistory(await ctx.store.crawlerHistory.get(brand.id), days, end);
    const budget = runBudget(ctx, 'crawler', WHY_CALLS_PER_CRAWLER_RUN);
    const w = { api: ctx.deps.api, call: ctx.call, budget, logger: ctx.logger };
    const judge = detect(history);
    const finish = await crawlerFallExtras(w, brand.id, subs, periods, { load, detect: judge }, nowMs);
    // Written by the runner with other brands' in one transaction (brand-batch.ts), where
    // each channel's state is read again: what it detects against is what it commits over.
    return async (batch) => {
      // Whole days ending yesterday: the same answer all day, so the digest reuses it.
      batch.observe({ brandId: brand.id, source: 'crawler', data: periods, observedAtMs: nowMs });
      batch.saveHistory({ brandId: brand.id, history, nowMs });
      return applyChannelLevels({ sink: withBatchSnoozes(ctx.sink, batch) }, subs, nowMs, {
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
