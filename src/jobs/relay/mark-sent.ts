import type { OutboxMessage } from '../../store/outbox-repo.js';
import { recordPostedAlert } from '../record-posted-alert.js';
import type { Outcome, RelayContext } from './relay-context.js';

/**
 * The row is in the channel (posted now, or found there): marked sent with its ts, and a
 * posted alert recorded for its buttons. `how` says which, in the log.
 */
export async function markSent(
  ctx: RelayContext,
  row: OutboxMessage,
  ts: string,
  how: string,
): Promise<Outcome> {
  const { outbox, clock, logger } = ctx;
  if (!(await outbox.markSent(row.id, ts, clock.now()))) {
    logger.warn({ outboxId: row.id, ts }, 'posted, but the row was no longer ours to mark');
  }
  logger.info(
    { outboxId: row.id, channel: row.channelId, kind: row.kind, ts, how },
    'outbox message delivered',
  );
  if (row.kind !== 'ops') ctx.drain.delivered = true;
  if (row.kind === 'alert')
    await recordPostedAlert({ store: ctx.store, web: ctx.web(), clock, logger }, row, ts).catch(
      (err: unknown) =>
        logger.warn(
          { outboxId: row.id, err },
          'the posted alert was not recorded; its first click records it',
        ),
    );
  return 'sent';
}
