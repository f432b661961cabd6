/**
 * Charts as images where Slack will not draw them: each `data_visualization` block of a
 * message is replaced by an image block showing the same chart drawn as a PNG. The PNG is
 * uploaded without sharing it anywhere (files.completeUploadExternal without a channel)
 * and the image block names it by its file id (`slack_file`), so the image sits exactly
 * where the chart was, in an ephemeral reply as in a channel message, and nothing else
 * is posted. The text line beside the chart states the same numbers either way.
 *
 * A chart that cannot be drawn or uploaded is left out (its text line stays): the message
 * must still go out.
 */
import type { WebClient } from '@slack/web-api';
import type { ChartRenderer } from '../charts/chart-renderer.js';
import type { ChartSpec } from '../charts/chart-spec.js';
import type { KnownBlock } from '../messages/block-kit-types.js';
import { escapeMrkdwn } from '../messages/mrkdwn.js';
import { ALT_TEXT_MAX_CHARS, uploadFile } from './upload-file.js';

/** A chart block of a message (its block_id) and the spec that draws it as an image. */
export interface MessageChart {
  blockId: string;
  spec: ChartSpec;
}

/** Slack's limit for an image block's title. */
const IMAGE_TITLE_MAX_CHARS = 2000;

const isChartBlock = (block: unknown): boolean =>
  typeof block === 'object' && block !== null && (block as { type?: unknown }).type === 'data_visualization';

export const hasChartBlock = (blocks: readonly unknown[] | undefined): boolean =>
  (blocks ?? []).some(isChartBlock);

async function imageBlock(web: WebClient, renderer: ChartRenderer, chart: MessageChart): Promise<KnownBlock> {
  const drawn = await renderer.render(chart.spec);
  const { fileId } = await uploadFile(web, {
    bytes: drawn.png,
    fileName: drawn.fileName,
    title: chart.spec.title,
    altText: drawn.altText,
  });
  return {
    type: 'image',
    block_id: chart.blockId,
    slack_file: { id: fileId },
    alt_text: drawn.altText.slice(0, ALT_TEXT_MAX_CHARS),
    title: { type: 'plain_text', text: escapeMrkdwn(chart.spec.title.slice(0, IMAGE_TITLE_MAX_CHARS)) },
  } as KnownBlock;
}

interface ChartImagesDeps {
  web: WebClient;
  renderer: ChartRenderer;
  /** Told about a chart left out, with the reason. */
  onFailure?: (err: unknown, chart: MessageChart) => void;
}

/** `blocks` with every chart block drawn as an image (or left out when that fails). */
export async function chartsAsImages<B>(
  blocks: readonly B[],
  charts: readonly MessageChart[],
  deps: ChartImagesDeps,
): Promise<B[]> {
  const out: B[] = [];
  for (const block of blocks) {
    if (!isChartBlock(block)) {
      out.push(block);
      continue;
    }
    const id = (block as { block_id?: unknown }).block_id;
    const chart = charts.find((c) => c.blockId === id);
    if (!chart) continue;
    try {
      out.push((await imageBlock(deps.web, deps.renderer, chart)) as B);
    } catch (err) {
      deps.onFailure?.(err, chart);
    }
  }
  return out;
}
