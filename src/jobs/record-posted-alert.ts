/**
 * After the relay posts an alert message: its state is recorded (who owns it starts empty,
 * or with the owner of the same alert's earlier occurrence), its permalink is kept for the
 * history, and when it happened before, the message is redrawn to link to that occurrence
 * and the owner it inherited gets a copy. A courtesy after the post, never part of it: a
 * failure here is logged, and the first click on the message records it anyway.
 */
import type { WebClient } from '@slack/web-api';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import type { OutboxMessage } from '../store/outbox-repo.js';
import type { Store } from '../store/store.js';
import { showAlertState } from '../use-cases/show-alert-state.js';

/** The header's text as posted ('' without one). */
function headlineOf(blocks: readonly unknown[] | undefined): string {
  const first = blocks?.[0] as { type?: unknown; text?: { text?: unknown } } | undefined;
  return first?.type === 'header' && typeof first.text?.text === 'string' ? first.text.text : '';
}

export async function recordPostedAlert(
  deps: { store: Store; web: WebClient; clock: Clock; logger: Pick<Logger, 'warn'> },
  row: OutboxMessage,
  ts: string,
): Promise<void> {
  const meta = row.payload.metadata?.event_payload;
  const alertCount = typeof meta?.['alert_count'] === 'number' ? meta['alert_count'] : 0;
  // A message of notes only (AI Pages not set up) is nobody's to resolve.
  if (row.kind !== 'alert' || row.brandId === null || alertCount === 0) return;
  const kinds = typeof meta?.['kinds'] === 'string' && meta['kinds'] !== '' ? meta['kinds'].split(',') : [];
  const { state, created } = await deps.store.alertStates.recordPosted({
    outboxId: row.id,
    channelId: row.channelId,
    messageTs: ts,
    brandId: row.brandId,
    headline: headlineOf(row.payload.blocks) || row.payload.text,
    kinds,
    alertCount,
    postedAtMs: deps.clock.now(),
    subjects: row.payload.alertSubjects ?? [],
  });
  if (!created) return;
  let shown = state;
  try {
    const res = await deps.web.chat.getPermalink({ channel: row.channelId, message_ts: ts });
    if (res.permalink) {
      await deps.store.alertStates.setPermalink(state.id, res.permalink);
      shown = { ...state, permalink: res.permalink };
    }
  } catch (err) {
    // The code only: the error carries the request, which stays out of logs.
    const code = (err as { data?: { error?: unknown } }).data?.error;
    deps.logger.warn(
      { alertId: state.id, code: String(code ?? 'unexpected') },
      'no permalink for the alert message',
    );
  }
  if (shown.previousId !== null)
    await showAlertState({ ...deps }, shown, { newAssignee: shown.assigneeId !== null });
}
