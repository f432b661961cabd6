/**
 * Read-only questions about alerts already written, for dashboards (the App Home): the
 * newest alert messages of each brand with their delivery state (outbox), and who
 * acknowledged which posted message (the audit log keeps every Acknowledge click with the
 * message's channel and ts). Nothing here writes; the outbox and the audit log stay the
 * only writers of their tables.
 */
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

/** An alert message written for one channel and brand (alerts-in-a-week questions). */
export interface ChannelAlertMessage {
  status: OutboxStatus;
  createdAtMs: number;
  /** The posted message's ts; null until posted. */
  slackTs: string | null;
  /** Alerts grouped in the message (its metadata), 0 when it carries only notes. */
  alertCount: number;
  kinds: string[];
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
   * picture is drawn from (parsed JSON, unchecked), for the App Home's trend bars. Rows
   * whose key holds `leaveOut` (the weekly summary's, over another week) are passed over.
   */
  latestDigestCharts(brandIds: readonly string[], leaveOut?: string): Promise<DigestChartRow[]>;
  /**
   * The alert messages written for one channel and brand from `fromMs` (included) to `toMs`
   * (excluded), oldest first, leaving out rows merged into a later grouped message and rows
   * never delivered (failed).
   */
  channelAlertsBetween(
    channelId: string,
    brandId: string,
    fromMs: number,
    toMs: number,
  ): Promise<ChannelAlertMessage[]>;
}

export interface DigestChartRow {
  brandId: string;
  createdAtMs: number;
  /** The row's `chart` payload as JSON; null when the row has none. */
  chart: unknown;
}
