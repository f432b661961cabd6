/**
 * Which rule judges a subscription's crawler visits today, and why ("range: 5 weeks of
 * history", "threshold −40 %: only 9 days of history so far"), from what the bot has
 * stored: the brand's daily visits and the channel's crawler state. Read by the settings
 * reply and `status`; the crawler job makes the same choice from the same data
 * (detect-crawler-range.ts), so what they say is what the next run does.
 */
import type { AlertSettings } from '../alerts/alert-settings.js';
import { normalRange } from '../alerts/crawler-normal-range.js';
import { type CrawlerRuleChoice, chooseCrawlerRule } from '../alerts/detect-crawler-range.js';
import type { Store } from '../store/store.js';
import { crawlerRange } from './crawler-periods.js';

interface CrawlerRuleSubject {
  channelId: string;
  brandId: string;
  settings: AlertSettings;
}

export async function crawlerRuleNow(
  store: Pick<Store, 'crawlerHistory' | 'channelDetectorState'>,
  sub: CrawlerRuleSubject,
  nowMs: number,
): Promise<CrawlerRuleChoice> {
  const history = await store.crawlerHistory.get(sub.brandId);
  const state = await store.channelDetectorState.getCrawler(sub.channelId, sub.brandId);
  const { historyDays, range } = normalRange({
    history,
    endDate: crawlerRange(nowMs).endDate,
    learnBefore: state?.dropping ? state.since : null,
  });
  return chooseCrawlerRule(sub.settings, historyDays, range !== null);
}
