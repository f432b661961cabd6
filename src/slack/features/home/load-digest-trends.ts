/**
 * The last 7 days of citations and AI crawler visits per brand, for the App Home, read
 * back from the newest digest chart row in the outbox (the data its picture is drawn
 * from). Slack cannot show an uploaded image on the Home, so the tab draws the same
 * figures as text bars; a local read, so opening the tab costs no API or Slack call.
 */
import type { Db } from '../../../store/open-database.js';
import type { OutboxChartDay } from '../../../store/outbox-repo.js';

export interface DigestTrend {
  /** When the digest that carried these figures was prepared. */
  createdAtMs: number;
  /** Oldest first; null when the service could not say. */
  citations: OutboxChartDay[] | null;
  crawlerVisits: OutboxChartDay[] | null;
}

interface TrendRow {
  brand_id: string;
  created_at_ms: number;
  chart: string | null;
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

export function loadDigestTrends(db: Db, brandIds: readonly string[]): Map<string, DigestTrend> {
  const rows = db
    .prepare<[string], TrendRow>(
      `SELECT o.brand_id, o.created_at_ms, json_extract(o.payload, '$.chart') AS chart
       FROM (
         SELECT id,
           ROW_NUMBER() OVER (PARTITION BY brand_id ORDER BY created_at_ms DESC, id DESC) AS place
         FROM outbox
         WHERE kind = 'chart' AND brand_id IN (SELECT value FROM json_each(?))
       ) AS ranked
       JOIN outbox AS o ON o.id = ranked.id
       WHERE ranked.place = 1`,
    )
    .all(JSON.stringify(brandIds));
  const out = new Map<string, DigestTrend>();
  for (const r of rows) {
    if (r.chart === null) continue;
    const chart = JSON.parse(r.chart) as { citations?: unknown; crawlerVisits?: unknown };
    const trend = {
      createdAtMs: r.created_at_ms,
      citations: days(chart.citations),
      crawlerVisits: days(chart.crawlerVisits),
    };
    if (trend.citations || trend.crawlerVisits) out.set(r.brand_id, trend);
  }
  return out;
}
