/**
 * AlertHistoryQueries on Postgres (alert-history-queries.ts has the contract): the same
 * two read-only queries over the outbox and the audit log, reading jsonb instead of JSON
 * text. Values come back as JSON values (a number stays a number, a string a string), as
 * SQLite's json_extract gives them, so the same type checks decide what is kept.
 */
import {
  type AckRow,
  type AlertHistoryQueries,
  type AlertRow,
  acknowledgementsFromRows,
  type ChartRow,
  recentAlertFromRow,
} from '../alert-history-queries.js';
import type { PgPool } from './create-pool.js';
import { pgText } from './pg-text.js';
import { pgExecutor } from './pg-transaction.js';

// Rank by id and time alone, then read the payload of the kept rows only. Brands are
// ordered bytewise (COLLATE "C"), as SQLite orders text, whatever the database's locale.
const RECENT = `
  SELECT o.id, o.channel_id, o.brand_id, o.status, o.hold_until_ms, o.created_at_ms, o.sent_at_ms, o.slack_ts,
    o.payload #> '{metadata,event_payload,alert_count}' AS alert_count,
    o.payload #> '{metadata,event_payload,kinds}' AS kinds,
    CASE WHEN o.payload #>> '{blocks,0,type}' = 'header' THEN o.payload #> '{blocks,0,text,text}' END AS headline
  FROM (
    SELECT id,
      ROW_NUMBER() OVER (PARTITION BY brand_id ORDER BY created_at_ms DESC, id DESC) AS place
    FROM outbox
    WHERE kind = 'alert'
      AND brand_id = ANY($1::text[])
      AND NOT (status = 'sent' AND slack_ts IS NULL)
  ) AS ranked
  JOIN outbox AS o ON o.id = ranked.id
  WHERE ranked.place <= $2
  ORDER BY o.brand_id COLLATE "C", o.created_at_ms DESC, o.id DESC`;

const ACKS = `
  SELECT channel_id, detail -> 'messageTs' AS message_ts, user_id, at_ms
  FROM audit_log
  WHERE action = 'alert.acknowledge' AND result = 'ok' AND at_ms >= $1
  ORDER BY id`;

const CHARTS = `
  SELECT DISTINCT ON (brand_id) brand_id, created_at_ms, payload -> 'chart' AS chart
  FROM outbox
  WHERE kind = 'chart' AND brand_id = ANY($1::text[])
  ORDER BY brand_id, created_at_ms DESC, id DESC`;

export function createPgAlertHistoryQueries(pool: PgPool): AlertHistoryQueries {
  return {
    async recentAlerts(brandIds, perBrand) {
      if (brandIds.length === 0 || perBrand <= 0) return [];
      const { rows } = await pgExecutor(pool).query<AlertRow>(RECENT, [brandIds.map(pgText), perBrand]);
      return rows.map(recentAlertFromRow);
    },
    async acknowledgementsSince(sinceMs) {
      const { rows } = await pgExecutor(pool).query<AckRow>(ACKS, [sinceMs]);
      return acknowledgementsFromRows(rows);
    },
    async latestDigestCharts(brandIds) {
      if (brandIds.length === 0) return [];
      const { rows } = await pgExecutor(pool).query<ChartRow>(CHARTS, [brandIds.map(pgText)]);
      return rows.map((r) => ({ brandId: r.brand_id, createdAtMs: r.created_at_ms, chart: r.chart }));
    },
  };
}
