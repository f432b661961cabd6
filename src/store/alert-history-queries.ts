/**
 * Read-only questions about alerts already written, for dashboards (the App Home): the
 * newest alert messages of each brand with their delivery state (outbox), and who
 * acknowledged which posted message (the audit log keeps every Acknowledge click with the
 * message's channel and ts). Nothing here writes; the outbox and the audit log stay the
 * only writers of their tables.
 */
import { asyncRepo } from './async-repo.js';
import type { Db } from './open-database.js';
import type { OutboxStatus } from './outbox-repo.js';

export interface RecentAlert {
  id: number;
  channelId: string;
  brandId: string;
  status: OutboxStatus;
  /** Held until then (a mute, a snooze, quiet hours); null when not held. */
  holdUntilMs: number | null;
  createdAtMs: number;
  sentAtMs: number | null;
  /** The posted message's ts; null until posted. */
  slackTs: string | null;
  /** Alerts grouped in the message (its metadata), 0 when it carries only notes. */
  alertCount: number;
  /** Alert kinds in the message, from its metadata (`citation_lost`, …). */
  kinds: string[];
  /** The message's header text as posted (escaped for Slack), null when it has none. */
  headline: string | null;
}

export interface AlertAcknowledgement {
  channelId: string;
  messageTs: string;
  userId: string;
  atMs: number;
}

export interface AlertHistoryQueries {
  /**
   * The newest `perBrand` alert messages of each of `brandIds`, newest first. Rows merged
   * into a later grouped message are left out: that message stands for them.
   */
  recentAlerts(brandIds: readonly string[], perBrand: number): Promise<RecentAlert[]>;
  /** Successful Acknowledge clicks on messages posted since `sinceMs`, oldest first. */
  acknowledgementsSince(sinceMs: number): Promise<AlertAcknowledgement[]>;
  /**
   * The newest digest chart row of each of `brandIds` that has one: the figures its
   * picture is drawn from (parsed JSON, unchecked), for the App Home's trend bars.
   */
  latestDigestCharts(brandIds: readonly string[]): Promise<DigestChartRow[]>;
}

export interface DigestChartRow {
  brandId: string;
  createdAtMs: number;
  /** The row's `chart` payload as JSON; null when the row has none. */
  chart: unknown;
}

/** The newest chart row per brand, as both backends read it (`chart` is JSON text in SQLite). */
export interface ChartRow {
  brand_id: string;
  created_at_ms: number;
  chart: unknown;
}

/**
 * The rows both backends read. The metadata fields are read out of JSON, so they are
 * typed `unknown` and checked here, once for both: a value of the wrong type counts as absent.
 */
export interface AlertRow {
  id: number;
  channel_id: string;
  brand_id: string;
  status: OutboxStatus;
  hold_until_ms: number | null;
  created_at_ms: number;
  sent_at_ms: number | null;
  slack_ts: string | null;
  alert_count: unknown;
  kinds: unknown;
  headline: unknown;
}

export interface AckRow {
  channel_id: string | null;
  message_ts: unknown;
  user_id: string;
  at_ms: number;
}

export function recentAlertFromRow(r: AlertRow): RecentAlert {
  return {
    id: r.id,
    channelId: r.channel_id,
    brandId: r.brand_id,
    status: r.status,
    holdUntilMs: r.hold_until_ms,
    createdAtMs: r.created_at_ms,
    sentAtMs: r.sent_at_ms,
    slackTs: r.slack_ts,
    alertCount: typeof r.alert_count === 'number' ? r.alert_count : 0,
    kinds: typeof r.kinds === 'string' && r.kinds !== '' ? r.kinds.split(',') : [],
    headline: typeof r.headline === 'string' ? r.headline : null,
  };
}

/** The acknowledgements among audit rows: those that name the message they acknowledged. */
export function acknowledgementsFromRows(rows: readonly AckRow[]): AlertAcknowledgement[] {
  return rows
    .filter(
      (r): r is AckRow & { channel_id: string; message_ts: string } =>
        typeof r.channel_id === 'string' && typeof r.message_ts === 'string',
    )
    .map((r) => ({ channelId: r.channel_id, messageTs: r.message_ts, userId: r.user_id, atMs: r.at_ms }));
}

export function createAlertHistoryQueries(db: Db): AlertHistoryQueries {
  // Rank by id and time alone, then parse the payload's metadata of the kept rows only.
  // Without an index on brand_id this scans the brands' alert rows once per call: about
  // 30 ms at 10,000 rows and 100-150 ms at 100,000 on a busy 2-core machine.
  const recent = db.prepare<[string, number], AlertRow>(
    `SELECT o.id, o.channel_id, o.brand_id, o.status, o.hold_until_ms, o.created_at_ms, o.sent_at_ms, o.slack_ts,
       json_extract(o.payload, '$.metadata.event_payload.alert_count') AS alert_count,
       json_extract(o.payload, '$.metadata.event_payload.kinds') AS kinds,
       CASE WHEN json_extract(o.payload, '$.blocks[0].type') = 'header'
         THEN json_extract(o.payload, '$.blocks[0].text.text') END AS headline
     FROM (
       SELECT id,
         ROW_NUMBER() OVER (PARTITION BY brand_id ORDER BY created_at_ms DESC, id DESC) AS place
       FROM outbox
       WHERE kind = 'alert'
         AND brand_id IN (SELECT value FROM json_each(?))
         AND NOT (status = 'sent' AND slack_ts IS NULL)
     ) AS ranked
     JOIN outbox AS o ON o.id = ranked.id
     WHERE ranked.place <= ?
     ORDER BY o.brand_id, o.created_at_ms DESC, o.id DESC`,
  );
  const charts = db.prepare<[string], ChartRow>(
    `SELECT o.brand_id, o.created_at_ms, json_extract(o.payload, '$.chart') AS chart
     FROM (
       SELECT id,
         ROW_NUMBER() OVER (PARTITION BY brand_id ORDER BY created_at_ms DESC, id DESC) AS place
       FROM outbox
       WHERE kind = 'chart' AND brand_id IN (SELECT value FROM json_each(?))
     ) AS ranked
     JOIN outbox AS o ON o.id = ranked.id
     WHERE ranked.place = 1`,
  );
  const acks = db.prepare<[number], AckRow>(
    `SELECT channel_id, json_extract(detail, '$.messageTs') AS message_ts, user_id, at_ms
     FROM audit_log
     WHERE action = 'alert.acknowledge' AND result = 'ok' AND at_ms >= ?
     ORDER BY id`,
  );
  return asyncRepo<AlertHistoryQueries>(db, {
    recentAlerts(brandIds, perBrand) {
      if (brandIds.length === 0 || perBrand <= 0) return [];
      return recent.all(JSON.stringify(brandIds), perBrand).map(recentAlertFromRow);
    },
    acknowledgementsSince(sinceMs) {
      return acknowledgementsFromRows(acks.all(sinceMs));
    },
    latestDigestCharts(brandIds) {
      if (brandIds.length === 0) return [];
      return charts.all(JSON.stringify(brandIds)).map((r) => ({
        brandId: r.brand_id,
        createdAtMs: r.created_at_ms,
        chart: typeof r.chart === 'string' ? (JSON.parse(r.chart) as unknown) : null,
      }));
    },
  });
}
