import type { OutboxMessage } from '../../store/outbox-repo.js';
import { classifySlackFailure, describeSlackError } from '../classify-slack-failure.js';
import { findPosted } from './find-posted.js';
import { markSent } from './mark-sent.js';
import type { Outcome, RelayContext } from './relay-context.js';
import { UNCONFIRMED } from './relay-context.js';
import { retryOrFail, settleFailure } from './settle-failure.js';

/**
 * Before posting a row whose previous attempt may have landed (its last error is
 * UNCONFIRMED), or a chart whose file was reserved before (it may have been shared), the
 * channel is searched: found → sent with that ts. Returns undefined when the row is to be
 * posted, else what became of it; a search that fails leaves the row unconfirmed for later
 * rather than post blindly.
 */
export async function verifyBeforePosting(
  ctx: RelayContext,
  row: OutboxMessage,
): Promise<Outcome | undefined> {
  if (!row.lastError?.startsWith(UNCONFIRMED) && !(row.kind === 'chart' && row.uploadFileId))
    return undefined;
  try {
    const ts = await findPosted(ctx, row);
    return ts ? await markSent(ctx, row, ts, 'found in history') : undefined;
  } catch (err) {
    const f = classifySlackFailure(err);
    if (f.kind === 'channel_gone' || f.kind === 'rate_limited') return settleFailure(ctx, row, err, false);
    // Cannot look: still unconfirmed, so do not post blindly; try again later.
    return retryOrFail(ctx, row, `history check failed: ${describeSlackError(err)}`, true);
  }
}
