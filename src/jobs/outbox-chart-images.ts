/**
 * The relay's side of charts inside outbox messages (the digest's 7 days): a row whose
 * blocks hold a chart Slack draws carries the chart's data (`payload.nativeChart`).
 * - A workspace that refused a chart block before (the store remembers it) gets the row
 *   with the chart as an image from the start (slack-client/chart-images.ts).
 * - Otherwise the row goes as it is; when Slack answers `invalid_blocks`, the same message
 *   goes once more with the image, and the workspace is remembered. A refused post was not
 *   posted, and the retry carries the row's metadata like any post, so a crash between it
 *   and the bookkeeping is found in the history as usual: nothing is posted twice.
 *
 * The workspace is the bot token's: auth.test's team_id, asked once per process.
 */
import type { WebClient } from '@slack/web-api';
import type { ChartRenderer } from '../charts/chart-renderer.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import { chartsAsImages, hasChartBlock } from '../slack-client/chart-images.js';
import type { OutboxMessage } from '../store/outbox-repo.js';
import type { WorkspaceChartsRepo } from '../store/workspace-charts-repo.js';
import { classifySlackFailure } from './classify-slack-failure.js';
import { outboxChartSpec } from './draw-outbox-chart.js';

interface OutboxChartImagesDeps {
  /** Read when a call is made (the relay's client loads on its first post). */
  web: () => WebClient;
  workspaceCharts: WorkspaceChartsRepo;
  renderer: () => ChartRenderer;
  clock: Clock;
  logger: Logger;
}

export interface PostContent {
  text: string;
  blocks?: unknown[];
}

export interface OutboxChartImages {
  /** What to post for `row`: its chart as an image when the workspace takes no chart blocks. */
  contentFor(row: OutboxMessage): Promise<PostContent>;
  /**
   * Slack refused `posted` (the row's content) for its chart block: the same message with
   * the image instead, the workspace remembered. Undefined when the refusal was not that.
   */
  afterRefusal(row: OutboxMessage, posted: PostContent, err: unknown): Promise<PostContent | undefined>;
}

export function createOutboxChartImages(deps: OutboxChartImagesDeps): OutboxChartImages {
  let team: Promise<string | undefined> | undefined;
  const teamId = () => {
    team ??= deps
      .web()
      .auth.test()
      .then(
        (r) => r.team_id || undefined,
        (err: unknown) => {
          team = undefined;
          deps.logger.warn(
            { err },
            'could not ask Slack which workspace this is; charts go as Slack draws them',
          );
          return undefined;
        },
      );
    return team;
  };

  async function asImages(row: OutboxMessage): Promise<PostContent> {
    const native = row.payload.nativeChart!;
    const blocks = await chartsAsImages(
      row.payload.blocks ?? [],
      [{ blockId: native.blockId, spec: outboxChartSpec(native.chart) }],
      {
        web: deps.web(),
        renderer: deps.renderer(),
        onFailure: (err) =>
          deps.logger.error(
            { err, outboxId: row.id },
            'chart image could not be made; the message goes without it',
          ),
      },
    );
    return { text: row.payload.text, blocks };
  }

  return {
    async contentFor(row) {
      if (!row.payload.nativeChart || !hasChartBlock(row.payload.blocks)) return row.payload;
      const team = await teamId();
      // Unknown (the database did not answer): Slack's chart; a refusal still falls back.
      const images = team ? await deps.workspaceCharts.wantsImages(team).catch(() => false) : false;
      return images ? asImages(row) : row.payload;
    },
    async afterRefusal(row, posted, err) {
      if (!row.payload.nativeChart || !hasChartBlock(posted.blocks)) return undefined;
      const f = classifySlackFailure(err);
      if (f.kind !== 'content_rejected' || f.code !== 'invalid_blocks') return undefined;
      deps.logger.warn({ outboxId: row.id }, 'Slack refused the chart block; sending the chart as an image');
      const team = await teamId();
      if (team)
        await deps.workspaceCharts
          .rememberImages(team, deps.clock.now(), f.code)
          .catch((e: unknown) => deps.logger.warn({ err: e }, 'could not remember that charts go as images'));
      return asImages(row);
    },
  };
}
