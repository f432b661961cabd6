/**
 * The outbox row of a digest's chart: the last 7 days of citations and AI crawler visits,
 * as data, drawn and uploaded by the relay when the row is delivered (after the digest's
 * own row, in its thread). Written in the same transaction as the digest's row, so a
 * digest and its chart are enqueued together or not at all.
 *
 * The crawler days come from the crawler periods the digest already reads (the poll's, or
 * its own fetch); the citation days need the citations history (one call per brand, made
 * only when a channel of the brand wants the chart).
 */
import type { CrawlerPeriods } from '../alerts/detect-crawler.js';
import type { CitationHistoryResponse } from '../api/schemas/citations.js';
import { chartTextLine, nativeChartBlock } from '../charts/native-series.js';
import { BLOCK_KIT_LIMITS as L } from '../messages/block-kit-limit-table.js';
import { escapeMrkdwn, mrkdwn } from '../messages/mrkdwn.js';
import type { OutboxChart, OutboxChartDay, OutboxPayload } from '../store/outbox-repo.js';
import { outboxChartSpec } from './draw-outbox-chart.js';

/** Days the digest chart shows. */
export const DIGEST_CHART_DAYS = 7;

type Failed = { error: string };
const failed = (x: unknown): x is Failed => typeof x === 'object' && x !== null && 'error' in x;

function lastDays(days: OutboxChartDay[]): OutboxChartDay[] {
  return [...days].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0)).slice(-DIGEST_CHART_DAYS);
}

export function citationDays(history: CitationHistoryResponse | Failed | null): OutboxChartDay[] | null {
  if (history === null || failed(history)) return null;
  const days = history.brand_time_series.map((p) => ({
    date: p.date.slice(0, 10),
    value: p.total_citations,
  }));
  return days.length > 0 ? lastDays(days) : null;
}

export function crawlerDays(periods: CrawlerPeriods | Failed): OutboxChartDay[] | null {
  if (failed(periods) || !periods.current.byDay) return null;
  return lastDays(Object.entries(periods.current.byDay).map(([date, value]) => ({ date, value })));
}

/** The chart row's payload, or null when there is nothing to draw. */
export function digestChartPayload(input: {
  brandName: string;
  citations: OutboxChartDay[] | null;
  crawlerVisits: OutboxChartDay[] | null;
  digestDedupeKey: string;
}): OutboxPayload | null {
  if (!input.citations && !input.crawlerVisits) return null;
  const chart: OutboxChart = {
    type: 'digest-brand',
    brand: input.brandName,
    citations: input.citations,
    crawlerVisits: input.crawlerVisits,
    afterDedupeKey: input.digestDedupeKey,
  };
  // The comment shared with the image: the digest above already says the numbers.
  return {
    text: mrkdwn`${escapeMrkdwn(input.brandName)}: the last ${DIGEST_CHART_DAYS} days at a glance`,
    chart,
  };
}

/** The block id of the chart inside a digest message. */
const DIGEST_CHART_BLOCK_ID = 'vis_digest_chart';

/**
 * The digest with its chart inside, drawn by Slack (a `data_visualization` block and the
 * text line stating its numbers), carrying the chart's data so the relay can send an image
 * instead where Slack refuses the block. Null when there is nothing to draw or the message
 * would outgrow Slack's limits: then the chart follows as an image in the thread.
 */
export function withNativeDigestChart(message: OutboxPayload, chartRow: OutboxPayload): OutboxPayload | null {
  const chart = chartRow.chart;
  if (!chart) return null;
  const { afterDedupeKey: _after, ...data } = chart;
  const spec = outboxChartSpec(data);
  const block = nativeChartBlock(spec, DIGEST_CHART_BLOCK_ID);
  if (!block) return null;
  const blocks = [...(message.blocks ?? []), block, chartTextLine(spec)];
  if (blocks.length > L.messageBlocks || JSON.stringify(blocks).length > L.messageBlocksChars) return null;
  return { ...message, blocks, nativeChart: { blockId: DIGEST_CHART_BLOCK_ID, chart: data } };
}
