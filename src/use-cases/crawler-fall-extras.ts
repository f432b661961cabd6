/**
 * What a crawler run adds to a crawler fall alert (src/jobs/crawler-job.ts): the crawlers
 * that fell most (for folding), the pages that fell most (a why-line), and, when the access
 * check finds a block on one of those crawlers, that finding as the cause with the fall
 * folded under it: one message.
 *
 * The detectors run inside the job's transaction, after every API call, so the data is
 * fetched first: the same pure detection is run once beforehand on each channel's state as
 * it is now, and only when it yields a fall are the calls made, 3 per brand (access, pages
 * of both periods), within WHY_CALLS_PER_CRAWLER_RUN for the whole run. If the state moved
 * in between (another replica), a fall without fetched data goes out without a why-line.
 */
import type { AlertSettings } from '../alerts/alert-settings.js';
import { blockedCrawlerAlert } from '../alerts/blocked-crawler-alert.js';
import { type CrawlerPeriods, crawlersThatFellMost } from '../alerts/detect-crawler.js';
import { explainedByBlockedCrawler, foldAlerts } from '../alerts/fold-alerts.js';
import type { Alert } from '../alerts/types.js';
import { crawlerFallWhy } from '../alerts/why-lines.js';
import type { Subscription } from '../store/subscriptions-repo.js';
import { fetchAccessFindings, fetchPageFalls, type WhyFetch } from './fetch-why-data.js';

interface DryRun<S> {
  load(channelId: string): Promise<S | null>;
  detect(prev: S | null, settings: AlertSettings): { alerts: readonly Alert[] };
}

/** Turns a run's alerts for one channel into what is sent: the fall decorated, its cause folded over it. */
type FinishCrawlerAlerts = (alerts: readonly Alert[]) => Alert[];

export async function crawlerFallExtras<S>(
  w: WhyFetch,
  brandId: string,
  subs: readonly Subscription[],
  periods: CrawlerPeriods,
  level: DryRun<S>,
  nowMs: number,
): Promise<FinishCrawlerAlerts> {
  let falls = false;
  for (const sub of subs) {
    const d = level.detect(await level.load(sub.channelId), sub.settings);
    if (d.alerts.some((a) => a.kind === 'crawler_drop')) {
      falls = true;
      break;
    }
  }
  const crawlers = crawlersThatFellMost(periods).map((m) => m.crawler);
  const findings = falls ? await fetchAccessFindings(w, brandId) : null;
  const pages = falls ? await fetchPageFalls(w, brandId, periods) : null;
  const why = crawlerFallWhy(pages);
  return (alerts) => {
    const out: Alert[] = [];
    for (const a of alerts) {
      if (a.kind !== 'crawler_drop') {
        out.push(a);
        continue;
      }
      const drop: Alert = { ...a, crawlers, ...(why.length > 0 ? { why } : {}) };
      out.push(drop);
      const cause = findings ? blockedCrawlerAlert(drop, findings, nowMs) : null;
      if (cause) out.push(cause);
    }
    return foldAlerts(out, explainedByBlockedCrawler);
  };
}
