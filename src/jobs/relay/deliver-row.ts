import type { OutboxMessage } from '../../store/outbox-repo.js';
import { awaitTurn } from './await-turn.js';
import { chartThread } from './chart-thread.js';
import { deliverChart } from './deliver-chart.js';
import { markSent } from './mark-sent.js';
import { postMessage } from './post-message.js';
import type { Outcome, RelayContext } from './relay-context.js';
import { screenRow } from './screen-row.js';
import { settleFailure } from './settle-failure.js';
import { verifyBeforePosting } from './verify-before-posting.js';

/**
 * One claimed row, start to end: still wanted (screen-row.ts)? A chart waits for its
 * digest; then the channel's turn (await-turn.ts), the history when a previous attempt
 * may have landed (verify-before-posting.ts), and the post or the upload.
 */
export async function deliverRow(ctx: RelayContext, row: OutboxMessage): Promise<Outcome> {
  const { outbox } = ctx;
  const now = ctx.clock.now();
  const screened = await screenRow(ctx, row, now);
  if (screened !== undefined) return screened;
  const thread = row.kind === 'chart' ? await chartThread(outbox, row) : { ts: undefined };
  // Every digest due in the channel goes before any chart is drawn: a channel with ten
  // brands reads ten digests first, then gets the pictures in their threads. No digest's
  // text ever waits for a picture.
  if (thread === 'wait' || (row.kind === 'chart' && (await outbox.hasDigestDue(row.channelId, now)))) {
    // The digest goes first; the chart follows at the next turn after it.
    await outbox.requeue(row.id, now + ctx.settings.paceMs);
    return 'deferred';
  }
  if (thread === 'lost') {
    await outbox.markFailed(row.id, 'the message it belongs to was not delivered');
    return 'failed';
  }
  if (!(await awaitTurn(ctx, row))) return 'deferred';
  const verified = await verifyBeforePosting(ctx, row);
  if (verified !== undefined) return verified;
  return row.kind === 'chart' ? deliverChart(ctx, row, thread.ts) : postRow(ctx, row);
}

/**
 * Posts the row's message. A chart block Slack refuses goes once more as an image
 * (outbox-chart-images.ts); any other refusal is settled (settle-failure.ts).
 */
async function postRow(ctx: RelayContext, row: OutboxMessage): Promise<Outcome> {
  let content = row.payload;
  try {
    content = await ctx.chartImages.contentFor(row);
    const ts = await postMessage(ctx, row, content);
    return await markSent(ctx, row, ts, 'posted');
  } catch (err) {
    const images = await ctx.chartImages.afterRefusal(row, content, err).catch(() => undefined);
    if (!images) return settleFailure(ctx, row, err, true);
    try {
      const ts = await postMessage(ctx, row, images);
      return await markSent(ctx, row, ts, 'chart as an image');
    } catch (again) {
      return settleFailure(ctx, row, again, true);
    }
  }
}
