/**
 * The check after an unknown outcome: a post (or upload) may have landed without us
 * knowing (a dropped connection, a timeout, a 5xx, a crash mid-call), so before trying
 * again the channel is searched for it. A message is found by the dedupe key in its
 * metadata; a chart by the file id reserved before its bytes went out (the row keeps it),
 * in the thread it went to.
 *
 * Remaining window: Slack shares a completed upload asynchronously; a share still
 * invisible when the lease has run out and the history is read would be uploaded a second
 * time. The lease (60 s by default) is far longer than that delay.
 */
import type { OutboxMessage } from '../../store/outbox-repo.js';
import { findPostedMessage } from '../find-posted-message.js';
import { chartThread } from './chart-thread.js';
import type { RelayContext } from './relay-context.js';

/** The ts of the row's message (the file id of a chart row) when it is in Slack, else null. */
export function findPosted(ctx: RelayContext, row: OutboxMessage): Promise<string | null> {
  return row.kind === 'chart'
    ? findSharedFile(ctx, row)
    : findPostedMessage(ctx.web(), {
        channel: row.channelId,
        dedupeKey: row.dedupeKey,
        oldestMs: row.createdAtMs - ctx.settings.historyMarginMs,
      });
}

/** A chart row's reserved file, shared already? The file id when it is, else null. */
async function findSharedFile(ctx: RelayContext, row: OutboxMessage): Promise<string | null> {
  // Read again: the attempt that reserved it may be this very one.
  const fileId = (await ctx.outbox.get(row.id))?.uploadFileId ?? row.uploadFileId;
  if (!fileId) return null;
  const thread = await chartThread(ctx.outbox, row);
  const ts = typeof thread === 'object' ? thread.ts : undefined;
  const web = ctx.web();
  const res = ts
    ? await web.conversations.replies({ channel: row.channelId, ts, limit: 200 })
    : await web.conversations.history({
        channel: row.channelId,
        oldest: (Math.max(0, row.createdAtMs - ctx.settings.historyMarginMs) / 1000).toFixed(6),
        limit: 200,
      });
  const shared = (res.messages ?? []).some((m) => m.files?.some((f) => f.id === fileId));
  return shared ? fileId : null;
}
