/**
 * The last 7 days of citations and AI crawler visits per brand, for the App Home, read
 * back from the newest digest chart row in the outbox (the data its picture is drawn
 * from). Slack cannot show an uploaded image on the Home, so the tab draws the same
 * figures as text bars; a local read, so opening the tab costs no API or Slack call.
 */

import { WEEKLY_KEY_PART } from '../../../alerts/weekly-due.js';
import type { OutboxChartDay } from '../../../store/outbox-repo.js';
import type { Store } from '../../../store/store.js';

export interface DigestTrend {
  /** When the digest that carried these figures was prepared. */
  createdAtMs: number;
  /** Oldest first; null when the service could not say. */
  citations: OutboxChartDay[] | null;
  crawlerVisits: OutboxChartDay[] | null;
}

function days(value: unknown): OutboxChartDay[] | null {
  if (!Array.isArray(value)) return null;
  const out = value.filter(
    (d): d is OutboxChartDay =>
      typeof d === 'object' &&
      d !== null &&
      typeof (d as OutboxChartDay).date === 'string' &&
      typeof (d as OutboxChartDay).value === 'number',
  );
  return out.length > 0 ? out : null;
}

export async function loadDigestTrends(
  store: Pick<Store, 'alertHistory'>,
  brandIds: readonly string[],
): Promise<Map<string, DigestTrend>> {
  const out = new Map<string, DigestTrend>();
  for (const r of await store.alertHistory.latestDigestCharts(brandIds, WEEKLY_KEY_PART)) {
    if (typeof r.chart !== 'object' || r.chart === null) continue;
    const chart = r.chart as { citations?: unknown; crawlerVisits?: unknown };
    const trend = {
      createdAtMs: r.createdAtMs,
      citations: days(chart.citations),
      crawlerVisits: days(chart.crawlerVisits),
    };
    if (trend.citations || trend.crawlerVisits) out.set(r.brandId, trend);
  }
  return out;
}
