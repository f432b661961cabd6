/**
 * A `chart` row is drawn when it is delivered and uploaded into the thread of the row it
 * follows (the digest; chart-thread.ts). The file id Slack reserves is written to the row
 * before the bytes go out, so an unknown outcome is settled by looking for that file
 * (find-posted.ts) instead of uploading again.
 */
import { FileUploadError, uploadFile } from '../../slack-client/upload-file.js';
import type { OutboxMessage } from '../../store/outbox-repo.js';
import { type DrawnChart, drawOutboxChart } from '../draw-outbox-chart.js';
import { markSent } from './mark-sent.js';
import type { Outcome, RelayContext } from './relay-context.js';
import { retryOrFail, settleFailure } from './settle-failure.js';

/**
 * Draws the chart and uploads it. The row's slack_ts then holds the file id:
 * files.completeUploadExternal does not name the message that shares the file.
 */
export async function deliverChart(
  ctx: RelayContext,
  row: OutboxMessage,
  threadTs: string | undefined,
): Promise<Outcome> {
  const { outbox, logger } = ctx;
  const drawn = await drawOrFail(ctx, row);
  if (drawn === 'failed') return drawn;
  try {
    const { fileId } = await uploadFile(
      ctx.web(),
      {
        channel: row.channelId,
        threadTs,
        bytes: drawn.png,
        fileName: drawn.fileName,
        title: drawn.title,
        altText: drawn.altText,
        initialComment: row.payload.text,
      },
      {
        onReserved: async (id) => {
          await outbox.recordUpload(row.id, id);
        },
      },
    );
    return await markSent(ctx, row, fileId, 'uploaded');
  } catch (err) {
    if (!(err instanceof FileUploadError)) return settleFailure(ctx, row, err, false);
    if (!err.permanent) return retryOrFail(ctx, row, err.message, false);
    await outbox.markFailed(row.id, err.message);
    logger.error({ outboxId: row.id, channel: row.channelId, error: err.message }, 'Slack refused the chart');
    return 'failed';
  } finally {
    void ctx.pacer.called(row.channelId, ctx.clock.now());
  }
}

/** The chart drawn, or the row failed: the same data draws the same way next time. */
async function drawOrFail(ctx: RelayContext, row: OutboxMessage): Promise<DrawnChart | 'failed'> {
  const chart = row.payload.chart;
  try {
    if (!chart) throw new Error('the row carries no chart');
    return await drawOutboxChart(ctx.charts, chart);
  } catch (err) {
    // A retry would only fail again.
    const reason = `chart could not be drawn: ${err instanceof Error ? err.message : String(err)}`;
    await ctx.outbox.markFailed(row.id, reason);
    ctx.logger.error({ err, outboxId: row.id, channel: row.channelId }, reason);
    return 'failed';
  }
}
