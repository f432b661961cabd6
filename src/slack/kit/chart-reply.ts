/**
 * Replies that carry a chart Slack draws itself (a `data_visualization` block) with the text
 * line that states its numbers (the chart's alt text: one source for both), and how they
 * reach Slack:
 * - a team that chose `charts=image` in a subscription of the channel, or a workspace whose
 *   Slack refused a chart before (remembered in the store), gets the chart as an image at
 *   once (slack-client/chart-images.ts);
 * - otherwise the chart goes native; when Slack refuses the reply (HTTP 400: the response
 *   URL answers `invalid_blocks` for a workspace or client without the block), the same
 *   reply goes out once more with the image instead, and the workspace is remembered when
 *   that one is taken. A refused reply was not posted, so nobody sees it twice.
 */
import type { WebClient } from '@slack/web-api';
import type { ChartSpec } from '../../charts/chart-spec.js';
import { chartTextLine, nativeChartBlock } from '../../charts/native-series.js';
import type { KnownBlock } from '../../messages/block-kit-types.js';
import type { Reply } from '../../messages/reply.js';
import { chartsAsImages, type MessageChart } from '../../slack-client/chart-images.js';
import { ReplyDeliveryError } from './fitted-respond.js';
import type { SlackDeps } from './slack-deps.js';

interface ChartReply extends Reply {
  /** The reply's chart blocks and what draws each as an image. */
  charts?: readonly MessageChart[];
}

const CHART_BLOCK_ID = 'vis_chart';

/**
 * `reply` with the chart and its text line before its rows of buttons; the reply as it was
 * when the spec has nothing to draw.
 */
export function withNativeChart(reply: Reply, spec: ChartSpec, blockId = CHART_BLOCK_ID): ChartReply {
  const block = nativeChartBlock(spec, blockId);
  if (!block) return reply;
  const at = reply.blocks.findIndex((b) => b.type === 'actions');
  const where = at < 0 ? reply.blocks.length : at;
  const chart = [block as unknown as KnownBlock, chartTextLine(spec)];
  return {
    ...reply,
    blocks: [...reply.blocks.slice(0, where), ...chart, ...reply.blocks.slice(where)],
    charts: [...((reply as ChartReply).charts ?? []), { blockId, spec }],
  };
}

const chartsOf = (reply: Reply): readonly MessageChart[] => (reply as ChartReply).charts ?? [];

type ChartDeps = Pick<SlackDeps, 'store' | 'charts' | 'clock' | 'logger'>;

/** Where a reply goes: the workspace and channel it is in, and the client that uploads. */
interface ChartAudience {
  teamId: string | undefined;
  channelId: string | undefined;
  web: WebClient;
}

/** Images, not Slack's charts: the channel chose them, or the workspace refused a chart before. */
async function chartsAsImagesWanted(deps: ChartDeps, to: ChartAudience): Promise<boolean> {
  const [workspace, channel] = await Promise.all([
    to.teamId ? deps.store.workspaceCharts.wantsImages(to.teamId) : false,
    to.channelId ? deps.store.subscriptions.listByChannel(to.channelId) : [],
  ]);
  return workspace || channel.some((s) => s.settings.charts === 'image');
}

async function asImages(reply: Reply, deps: ChartDeps, to: ChartAudience): Promise<Reply> {
  const blocks = await chartsAsImages(reply.blocks, chartsOf(reply), {
    web: to.web,
    renderer: deps.charts,
    onFailure: (err, chart) =>
      deps.logger.error({ err, chart: chart.spec.kind }, 'chart image could not be made; sent without it'),
  });
  const { charts: _charts, ...rest } = reply as ChartReply;
  return { ...rest, blocks };
}

/** Slack refused what was sent (400), not the URL (404: expired or used up). */
function refused(err: unknown): boolean {
  const cause = err instanceof ReplyDeliveryError ? err.cause : err;
  return (cause as { statusCode?: unknown } | null)?.statusCode === 400;
}

/** `respond` (fittedRespond's) for replies that may hold charts; others pass through unchanged. */
export function withChartFallback(
  respond: (reply: Reply) => Promise<void>,
  deps: ChartDeps,
  to: ChartAudience,
): (reply: Reply) => Promise<void> {
  return async (reply) => {
    if (chartsOf(reply).length === 0) return respond(reply);
    const images = await chartsAsImagesWanted(deps, to).catch((err: unknown) => {
      deps.logger.warn({ err }, 'could not read how this workspace takes charts; trying Slack charts');
      return false;
    });
    if (images) return respond(await asImages(reply, deps, to));
    try {
      await respond(reply);
    } catch (err) {
      if (!refused(err)) throw err;
      deps.logger.warn({ teamId: to.teamId }, 'Slack refused the chart block; sending the chart as an image');
      await respond(await asImages(reply, deps, to));
      if (to.teamId)
        await deps.store.workspaceCharts
          .rememberImages(to.teamId, deps.clock.now(), 'invalid_blocks')
          .catch((e: unknown) => deps.logger.warn({ err: e }, 'could not remember that charts go as images'));
    }
  };
}
