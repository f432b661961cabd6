/**
 * Delivers the outbox to Slack, effectively once (docs/alert-semantics.md: an alert is never missed and
 * never repeated).
 *
 * - Rows are claimed with a lease (one relay per row, across processes) and posted with
 *   message metadata carrying their dedupe key.
 * - Whenever a post may have landed without us knowing (a dropped connection, a timeout, a
 *   5xx, or a 'sending' row left by a crashed process), the channel history is searched for
 *   that key before posting again: found → sent with that ts; not found → posted.
 * - Pacing: about one message per second per channel, one slot per channel shared by every
 *   relay of every process (channel-pacer.ts); a 429 holds that channel until its
 *   Retry-After and the row is tried again then, its attempt not counted. Each claim takes at
 *   most two rows per channel (the second waits one pace), so a batch spans many channels
 *   and every channel with something due moves at its own pace.
 * - A row written ahead (a digest prepared before its local time) is not claimed before
 *   its `sendAfterMs`; the loop wakes for the next due row rather than waiting out its
 *   interval, so such a row goes out at its time. A digest whose subscription no longer
 *   wants digests by then is not posted.
 * - channel_not_found / is_archived / not_in_channel: the channel's subscriptions are
 *   paused with the reason, the row fails with it, and nothing more is sent there.
 * - invalid_blocks / msg_blocks_too_long: the message goes out as its plain-text fallback.
 * - Anything else: retried with exponential backoff; after maxAttempts the row fails,
 *   logged at error and raised as the bot's own trouble (`job_failing:delivery`).
 * - Held rows (quiet hours, mute) whose hold ended are released at every drain, one grouped
 *   message per brand per channel. Lifting a hold (unmute, Undo snooze, quiet hours off)
 *   nudges the running loop (deps.deliveryNudge), so those go out at once, not after its wait.
 * - The database cannot be used (down, locked): the loop stops the drain, backs off (1 s
 *   doubling to a minute) without logging each try (the outage is logged once where it is
 *   noticed) and starts again as soon as the database answers. A post whose row could not
 *   be marked sent stays 'sending' and is found in the channel history afterwards, so
 *   nothing is posted twice.
 * - A `chart` row is drawn when it is delivered and uploaded into the thread of the row it
 *   follows (the digest), only once that row is sent and no other digest of the channel is
 *   due: no digest's text ever waits for a picture. The file id Slack reserves is written to the row before the bytes go out;
 *   when the outcome is unknown (a crash, a lost answer) the thread is searched for that
 *   file instead of uploading again. Remaining window: Slack shares a completed upload
 *   asynchronously; a share still invisible when the lease has run out and the history is
 *   read would be uploaded a second time. The lease (60 s) is far longer than that delay.
 *
 * The relay's WebClient must not retry (webClientOptions 'outbox'): a client retry of a post
 * whose answer was lost would post it twice without the history check.
 */

import type { WebClient } from '@slack/web-api';
import { isWeeklyDedupeKey } from '../alerts/weekly-due.js';
import { backoffDelay } from '../backoff-delay.js';
import { type ChartRenderer, createChartRenderer } from '../charts/chart-renderer.js';
import type { Clock } from '../clock.js';
import type { DatabaseHealth } from '../database-health.js';
import type { DeliveryNudge } from '../delivery-nudge.js';
import type { Logger } from '../logger.js';
import { BLOCK_KIT_LIMITS as L } from '../messages/block-kit-limit-table.js';
import { truncatePlain } from '../messages/truncate-mrkdwn.js';
import type { Metrics } from '../metrics.js';
import { FileUploadError, uploadFile } from '../slack-client/upload-file.js';
import { isDatabaseUnavailable } from '../store/database-unavailable.js';
import type { OutboxMessage, OutboxRepo } from '../store/outbox-repo.js';
import type { Store } from '../store/store.js';
import type { SubscriptionsRepo } from '../store/subscriptions-repo.js';
import { createChannelPacer } from './channel-pacer.js';
import { classifySlackFailure, describeSlackError, type SlackFailure } from './classify-slack-failure.js';
import { type DrawnChart, drawOutboxChart } from './draw-outbox-chart.js';
import { findPostedMessage } from './find-posted-message.js';
import { createOutboxChartImages } from './outbox-chart-images.js';
import { outboxMetadata } from './outbox-metadata.js';
import { pauseReason } from './pause-reason.js';
import { recordPostedAlert } from './record-posted-alert.js';
import { releaseHeldAlerts } from './release-held-alerts.js';

/** The health flag raised when a message could not be delivered after every attempt. */
export const DELIVERY_FLAG = 'job_failing:delivery';

/** last_error prefix: the previous attempt may have been accepted; look before posting. */
export const UNCONFIRMED = 'unconfirmed: ';

/** What the relay uses of the app's dependencies (AppDeps has them under these names). */
export interface RelayDeps {
  store: Store;
  /** Built with webClientOptions(config, 'outbox', …): rejectRateLimitedCalls, no retries. */
  web: WebClient;
  clock: Clock;
  logger: Logger;
  metrics?: Pick<Metrics, 'observeDelivery'>;
  /** Renders `chart` rows (the process's bound); default: a renderer of the relay's own. */
  charts?: ChartRenderer;
  /** Tells the loop when the database answers again after an outage (it then drains at once). */
  database?: Pick<DatabaseHealth, 'onChange'>;
  /** While start()ed, a nudge ends the loop's wait: held alerts just released go out now. */
  deliveryNudge?: DeliveryNudge;
}

export interface OutboxRelayOptions {
  /** Lease owner id, unique per process (e.g. `serve:<pid>`). */
  owner: string;
  /** Defaults: the store's repositories. */
  outbox?: OutboxRepo;
  subscriptions?: SubscriptionsRepo;
  /** Where a delivery that gave up is reported (bot-health.ts). */
  health?: {
    raise(flag: typeof DELIVERY_FLAG, detail: string): void;
    clear(flag: typeof DELIVERY_FLAG): void;
  };
  /** Minimum gap between posts to one channel; default 1000. */
  paceMs?: number;
  /** Attempts (Slack calls that failed for a retryable reason) before a row fails; default 12. */
  maxAttempts?: number;
  /** First retry delay; doubles per attempt up to backoffMaxMs. Defaults 5 s and 15 min. */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** How long a claim is good for; keep it well above the Slack call timeout. Default 60 s. */
  leaseMs?: number;
  /** Rows claimed at once, at most PER_CHANNEL_CLAIM per channel; default 40. */
  batchSize?: number;
  /** History is searched from this long before the row was created; default 5 min. */
  historyMarginMs?: number;
}

/** The relay's knobs a caller may turn (tests and the demo deliver faster). */
export type RelayTuning = Partial<
  Pick<
    OutboxRelayOptions,
    'paceMs' | 'maxAttempts' | 'backoffBaseMs' | 'backoffMaxMs' | 'leaseMs' | 'batchSize'
  >
>;

export interface DrainResult {
  sent: number;
  /** Rescheduled: a retryable failure or a 429. */
  retried: number;
  /** Given up: a permanent error, maxAttempts reached, or the ops channel is gone. */
  failed: number;
  /** Not sent because the channel is gone or its subscriptions are paused. */
  paused: number;
  /** Held again (a mute began after the row was written). */
  held: number;
  /** 'sending' rows of a crashed relay resolved (found in history, or requeued). */
  recovered: number;
  /** Held rows delivered inside grouped messages. */
  merged: number;
}

export interface OutboxRelay {
  drainOnce(): Promise<DrainResult>;
  /** Resolves 'sending' rows whose lease expired; returns how many. */
  recoverSending(): Promise<number>;
  start(intervalMs: number): void;
  stop(): Promise<void>;
}

/**
 * Rows of one channel per claim: a batch filled by one busy channel would keep every other
 * channel waiting on its pace; two keep the channel busy while the batch turns over.
 */
const PER_CHANNEL_CLAIM = 2;

/** Reservations tried for one row before it goes back to the queue (awaitTurn). */
const TURN_TRIES = 4;

/** The loop's pause while the database cannot be used: 1 s, doubling, at most a minute. */
const OUTAGE_BACKOFF = { baseDelayMs: 1000, maxDelayMs: 60_000 };

type Outcome = 'sent' | 'retried' | 'failed' | 'paused' | 'held' | 'deferred';

const DEFAULTS = {
  paceMs: 1000,
  maxAttempts: 12,
  backoffBaseMs: 5000,
  backoffMaxMs: 15 * 60_000,
  leaseMs: 60_000,
  batchSize: 40,
  historyMarginMs: 5 * 60_000,
};

/** A drain that did nothing. */
export const emptyDrainResult = (): DrainResult => ({
  sent: 0,
  retried: 0,
  failed: 0,
  paused: 0,
  held: 0,
  recovered: 0,
  merged: 0,
});

export function createOutboxRelay(deps: RelayDeps, options: OutboxRelayOptions): OutboxRelay {
  const o = { ...DEFAULTS, ...stripUndefined(options) };
  // deps.web is read where a call is made: the client package loads on the first post.
  const { store, clock } = deps;
  const { owner } = options;
  const logger = deps.logger.child({ component: 'outbox-relay', owner });
  const outbox = options.outbox ?? store.outbox({ owner });
  const subscriptions = options.subscriptions ?? store.subscriptions;
  const pacer = createChannelPacer(store.channelPace, {
    paceMs: o.paceMs,
    onError: (err, channel) => logger.warn({ err, channel }, 'could not record the channel pace'),
  });
  /** A call is given this much of the lease; a row with less left goes back to the queue. */
  const leaseReserve = Math.min(o.leaseMs / 2, 15_000);

  const count = (row: OutboxMessage, outcome: Outcome) => deps.metrics?.observeDelivery(row.kind, outcome);

  /** Channels found gone during the current drain: their other rows are not even tried. */
  const gone = new Map<string, string>();
  /** This drain delivered something / gave something up (for the delivery health flag). */
  const drainState = { delivered: false, gaveUp: false };
  /** Set by stop(): pacing waits end and the rest of the batch goes back to the queue. */
  let stopping: AbortController | undefined;

  async function pauseChannel(row: OutboxMessage, code: string, nowMs: number): Promise<Outcome> {
    gone.set(row.channelId, code);
    const reason = pauseReason(code);
    if (row.kind === 'ops') {
      await outbox.markFailed(row.id, `channel: ${reason}`);
      logger.error(
        { outboxId: row.id, channel: row.channelId, slackError: code },
        'SLACK_OPS_CHANNEL refused the report',
      );
      return 'failed';
    }
    const n = await subscriptions.pauseChannel(row.channelId, reason, nowMs);
    await outbox.markFailed(row.id, `channel: ${reason}`);
    logger.warn(
      { outboxId: row.id, channel: row.channelId, slackError: code, pausedSubscriptions: n },
      'channel refused delivery; its subscriptions are paused',
    );
    return 'paused';
  }

  /** Back to 'pending' only if nobody claimed it since we saw it (another relay may have). */
  function requeueIfStillStale(row: OutboxMessage, atMs: number): Promise<boolean> {
    return store.transaction(async () => {
      const cur = await outbox.get(row.id);
      if (
        cur?.status !== 'sending' ||
        cur.leaseOwner !== row.leaseOwner ||
        cur.leaseUntilMs !== row.leaseUntilMs
      )
        return false;
      return outbox.requeue(row.id, atMs);
    });
  }

  const charts = deps.charts ?? createChartRenderer();
  const chartImages = createOutboxChartImages({
    web: () => deps.web,
    workspaceCharts: store.workspaceCharts,
    renderer: () => charts,
    clock,
    logger,
  });

  /**
   * Where a chart row goes: the thread of the row it follows once that one is sent; 'wait'
   * while it is not; 'lost' when it failed (the chart alone would make no sense).
   */
  async function threadOf(row: OutboxMessage): Promise<{ ts: string | undefined } | 'wait' | 'lost'> {
    const key = row.payload.chart?.afterDedupeKey;
    const parent = key ? await outbox.getByDedupeKey(key) : null;
    // No parent (never had one, or purged long after it was sent): the channel itself.
    if (!parent) return { ts: undefined };
    if (parent.status === 'sent') return { ts: parent.slackTs ?? undefined };
    return parent.status === 'failed' ? 'lost' : 'wait';
  }

  /** A chart row's reserved file, shared already? The file id when it is, else null. */
  async function findSharedFile(row: OutboxMessage): Promise<string | null> {
    // Read again: the attempt that reserved it may be this very one.
    const fileId = (await outbox.get(row.id))?.uploadFileId ?? row.uploadFileId;
    if (!fileId) return null;
    const thread = await threadOf(row);
    const ts = typeof thread === 'object' ? thread.ts : undefined;
    const res = ts
      ? await deps.web.conversations.replies({ channel: row.channelId, ts, limit: 200 })
      : await deps.web.conversations.history({
          channel: row.channelId,
          oldest: (Math.max(0, row.createdAtMs - o.historyMarginMs) / 1000).toFixed(6),
          limit: 200,
        });
    const shared = (res.messages ?? []).some((m) => m.files?.some((f) => f.id === fileId));
    return shared ? fileId : null;
  }

  const findPosted = (row: OutboxMessage) =>
    row.kind === 'chart'
      ? findSharedFile(row)
      : findPostedMessage(deps.web, {
          channel: row.channelId,
          dedupeKey: row.dedupeKey,
          oldestMs: row.createdAtMs - o.historyMarginMs,
        });

  async function markSent(row: OutboxMessage, ts: string, how: string): Promise<Outcome> {
    if (!(await outbox.markSent(row.id, ts, clock.now()))) {
      logger.warn({ outboxId: row.id, ts }, 'posted, but the row was no longer ours to mark');
    }
    logger.info(
      { outboxId: row.id, channel: row.channelId, kind: row.kind, ts, how },
      'outbox message delivered',
    );
    if (row.kind !== 'ops') drainState.delivered = true;
    if (row.kind === 'alert')
      await recordPostedAlert({ store, web: deps.web, clock, logger }, row, ts).catch((err: unknown) =>
        logger.warn(
          { outboxId: row.id, err },
          'the posted alert was not recorded; its first click records it',
        ),
      );
    return 'sent';
  }

  /** A retryable failure: back off, or give up after maxAttempts (checking history one last time). */
  async function retryOrFail(
    row: OutboxMessage,
    description: string,
    unconfirmed: boolean,
  ): Promise<Outcome> {
    const now = clock.now();
    if (row.attempts < o.maxAttempts) {
      const at =
        now + backoffDelay(row.attempts - 1, { baseDelayMs: o.backoffBaseMs, maxDelayMs: o.backoffMaxMs });
      await outbox.markRetry(row.id, `${unconfirmed ? UNCONFIRMED : ''}${description}`, at);
      logger.warn(
        { outboxId: row.id, channel: row.channelId, attempt: row.attempts, error: description, retryAt: at },
        'delivery failed; will retry',
      );
      return 'retried';
    }
    if (unconfirmed) {
      const ts = await findPosted(row).catch(() => null);
      if (ts) return await markSent(row, ts, 'found in history');
    }
    const reason = `gave up after ${row.attempts} attempts: ${description}`;
    await outbox.markFailed(row.id, reason);
    logger.error({ outboxId: row.id, channel: row.channelId, kind: row.kind, error: description }, reason);
    if (row.kind !== 'ops') {
      drainState.gaveUp = true;
      await options.health?.raise(DELIVERY_FLAG, `outbox #${row.id} to ${row.channelId}: ${reason}`);
    }
    return 'failed';
  }

  /** What to do after Slack said no (or nothing). `fallback`: the text-only retry is still possible. */
  async function settle(row: OutboxMessage, err: unknown, fallback: boolean): Promise<Outcome> {
    const f: SlackFailure = classifySlackFailure(err);
    const now = clock.now();
    switch (f.kind) {
      case 'rate_limited':
        await pacer.blockUntil(row.channelId, now + f.retryAfterMs);
        // Slack did nothing with the call: not an attempt.
        await outbox.requeue(row.id, now + f.retryAfterMs);
        logger.warn(
          { outboxId: row.id, channel: row.channelId, retryAfterMs: f.retryAfterMs },
          'Slack rate limited the channel; retrying after Retry-After',
        );
        return 'retried';
      case 'channel_gone':
        return await pauseChannel(row, f.code, now);
      case 'content_rejected':
        if (fallback) return postText(row, f.code);
        await outbox.markFailed(row.id, f.code);
        logger.error({ outboxId: row.id, slackError: f.code }, 'Slack refused even the plain-text message');
        return 'failed';
      case 'permanent':
        await outbox.markFailed(row.id, f.code);
        logger.error(
          { outboxId: row.id, channel: row.channelId, slackError: f.code },
          'Slack refused the message',
        );
        return 'failed';
      case 'transient':
        return retryOrFail(row, describeSlackError(err), f.unconfirmed);
    }
  }

  async function post(row: OutboxMessage, content: { text: string; blocks?: unknown[] }): Promise<string> {
    try {
      const res = await deps.web.chat.postMessage({
        channel: row.channelId,
        text: content.text,
        ...(content.blocks && content.blocks.length > 0 ? { blocks: content.blocks as never } : {}),
        metadata: outboxMetadata(row) as never,
        // Alerts name URLs; unfurled previews would bury the message.
        unfurl_links: false,
        unfurl_media: false,
      });
      if (!res.ts) throw new Error('chat.postMessage answered ok without a ts');
      return res.ts;
    } finally {
      // Recorded in the background, off the delivery's path (a round trip per post on
      // Postgres): this relay holds the channel back from memory meanwhile, and the others
      // by the reservation taken before the call.
      void pacer.called(row.channelId, clock.now());
    }
  }

  /** The blocks were refused: the fallback text carries the same news. */
  async function postText(row: OutboxMessage, code: string): Promise<Outcome> {
    logger.warn({ outboxId: row.id, slackError: code }, 'Slack refused the blocks; sending the plain text');
    try {
      const ts = await post(row, { text: truncatePlain(row.payload.text, L.fallbackText) });
      return await markSent(row, ts, `text fallback (${code})`);
    } catch (err) {
      return settle(row, err, false);
    }
  }

  /**
   * Waits for the channel's turn (at most one pace) and takes its slot, or hands the row
   * back, attempt not counted, when the turn is further off (a 429) or the lease would run
   * out first. Another relay may take the slot the moment it frees: then wait again, a few
   * times at most (a timer may also wake a millisecond early, and a clock whose sleep does
   * not advance time must not spin), then hand the row back for when the slot frees.
   */
  async function awaitTurn(row: OutboxMessage): Promise<boolean> {
    const signal = stopping?.signal;
    const leaseUntil = row.leaseUntilMs ?? 0;
    let ready = clock.now();
    for (let tries = 0; tries < TURN_TRIES; tries += 1) {
      const now = clock.now();
      if (signal?.aborted || leaseUntil - now < leaseReserve) break;
      const turn = await pacer.reserve(row.channelId, now);
      if (turn.ok) return true;
      ready = turn.readyAt;
      if (ready - now > o.paceMs || leaseUntil - ready < leaseReserve) break;
      try {
        await clock.sleep(ready - now, signal);
      } catch {
        // stop() during the wait: the row waits for the next process or drain.
        break;
      }
    }
    await outbox.requeue(row.id, Math.max(clock.now(), ready));
    return false;
  }

  async function deliver(row: OutboxMessage): Promise<Outcome> {
    const now = clock.now();
    const goneCode = gone.get(row.channelId);
    if (goneCode !== undefined) {
      await outbox.markFailed(row.id, `channel: ${pauseReason(goneCode)}`);
      return row.kind === 'ops' ? 'failed' : 'paused';
    }
    if (row.brandId !== null && row.kind !== 'ops') {
      const sub = await subscriptions.get(row.channelId, row.brandId);
      if (sub?.pausedReason) {
        await outbox.markFailed(row.id, `subscription paused: ${sub.pausedReason}`);
        return 'paused';
      }
      // A weekly summary (and its chart) is the digest kind but follows weekly=, not the digest.
      const weekly = isWeeklyDedupeKey(row.dedupeKey);
      if (weekly && !sub?.settings.weekly) {
        await outbox.markFailed(row.id, 'weekly summary turned off before it was posted');
        return 'paused';
      }
      if (!weekly && (row.kind === 'digest' || row.kind === 'chart') && !sub?.digest) {
        // Prepared ahead, then the channel turned its digest off (or unsubscribed).
        await outbox.markFailed(row.id, 'digest turned off before it was posted');
        return 'paused';
      }
      if (!weekly && row.kind === 'chart' && !sub?.settings.digestChart) {
        await outbox.markFailed(row.id, 'digest chart turned off before it was posted');
        return 'paused';
      }
      if (row.kind === 'alert' && sub?.mutedUntilMs != null && sub.mutedUntilMs > now) {
        await outbox.hold(row.id, sub.mutedUntilMs);
        return 'held';
      }
    }
    const thread = row.kind === 'chart' ? await threadOf(row) : { ts: undefined };
    // Every digest due in the channel goes before any chart is drawn: a channel with ten
    // brands reads ten digests first, then gets the pictures in their threads.
    if (thread === 'wait' || (row.kind === 'chart' && (await outbox.hasDigestDue(row.channelId, now)))) {
      // The digest goes first; the chart follows at the next turn after it.
      await outbox.requeue(row.id, now + o.paceMs);
      return 'deferred';
    }
    if (thread === 'lost') {
      await outbox.markFailed(row.id, 'the message it belongs to was not delivered');
      return 'failed';
    }
    if (!(await awaitTurn(row))) return 'deferred';

    // A chart whose file was reserved before may have been shared: look before uploading.
    if (row.lastError?.startsWith(UNCONFIRMED) || (row.kind === 'chart' && row.uploadFileId)) {
      try {
        const ts = await findPosted(row);
        if (ts) return await markSent(row, ts, 'found in history');
      } catch (err) {
        const f = classifySlackFailure(err);
        if (f.kind === 'channel_gone' || f.kind === 'rate_limited') return settle(row, err, false);
        // Cannot look: still unconfirmed, so do not post blindly; try again later.
        return retryOrFail(row, `history check failed: ${describeSlackError(err)}`, true);
      }
    }

    if (row.kind === 'chart') return deliverChart(row, thread.ts);
    let content = row.payload;
    try {
      content = await chartImages.contentFor(row);
      const ts = await post(row, content);
      return await markSent(row, ts, 'posted');
    } catch (err) {
      const images = await chartImages.afterRefusal(row, content, err).catch(() => undefined);
      if (!images) return settle(row, err, true);
      try {
        const ts = await post(row, images);
        return await markSent(row, ts, 'chart as an image');
      } catch (again) {
        return settle(row, again, true);
      }
    }
  }

  /**
   * Draws the chart and uploads it. The row's slack_ts then holds the file id:
   * files.completeUploadExternal does not name the message that shares the file.
   */
  async function deliverChart(row: OutboxMessage, threadTs: string | undefined): Promise<Outcome> {
    const chart = row.payload.chart;
    let drawn: DrawnChart;
    try {
      if (!chart) throw new Error('the row carries no chart');
      drawn = await drawOutboxChart(charts, chart);
    } catch (err) {
      // The same data draws the same way next time: a retry would only fail again.
      const reason = `chart could not be drawn: ${err instanceof Error ? err.message : String(err)}`;
      await outbox.markFailed(row.id, reason);
      logger.error({ err, outboxId: row.id, channel: row.channelId }, reason);
      return 'failed';
    }
    try {
      const { fileId } = await uploadFile(
        deps.web,
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
      return await markSent(row, fileId, 'uploaded');
    } catch (err) {
      if (err instanceof FileUploadError) {
        if (!err.permanent) return retryOrFail(row, err.message, false);
        await outbox.markFailed(row.id, err.message);
        logger.error(
          { outboxId: row.id, channel: row.channelId, error: err.message },
          'Slack refused the chart',
        );
        return 'failed';
      }
      return settle(row, err, false);
    } finally {
      void pacer.called(row.channelId, clock.now());
    }
  }

  async function recoverSending(): Promise<number> {
    const now = clock.now();
    let resolved = 0;
    for (const row of await outbox.listSending(now)) {
      try {
        const ts = await findPosted(row);
        if (ts) {
          await markSent(row, ts, 'found in history after a crash');
          resolved += 1;
        } else if (await requeueIfStillStale(row, now)) {
          logger.info(
            { outboxId: row.id, channel: row.channelId },
            'crashed delivery not in history; requeued',
          );
          resolved += 1;
        }
      } catch (err) {
        const f = classifySlackFailure(err);
        if (f.kind === 'channel_gone') {
          await pauseChannel(row, f.code, now);
          resolved += 1;
        } else if (f.kind === 'rate_limited') {
          await pacer.blockUntil(row.channelId, now + f.retryAfterMs);
        } else {
          // Left in 'sending': the next drain looks again rather than risk a repost.
          logger.warn(
            { outboxId: row.id, error: describeSlackError(err) },
            'history check failed; will look again',
          );
        }
      }
    }
    return resolved;
  }

  async function drain(): Promise<DrainResult> {
    const result = emptyDrainResult();
    gone.clear();
    drainState.delivered = false;
    drainState.gaveUp = false;
    result.merged = (await releaseHeldAlerts(store.transaction, outbox, clock.now())).merged;
    result.recovered = await recoverSending();
    while (!stopping?.signal.aborted) {
      // Only due rows are claimed: rows put back for later (429, backoff, pacing) end the loop.
      const rows = await outbox.claimDue(clock.now(), o.batchSize, {
        owner,
        leaseMs: o.leaseMs,
        perChannel: PER_CHANNEL_CLAIM,
      });
      if (rows.length === 0) break;
      const byChannel = new Map<string, OutboxMessage[]>();
      for (const r of rows) byChannel.set(r.channelId, [...(byChannel.get(r.channelId) ?? []), r]);
      // Channels in parallel, each channel in order at its own pace.
      let outage: unknown;
      await Promise.all(
        [...byChannel.values()].map(async (list) => {
          for (const row of list) {
            if (outage !== undefined) return;
            let outcome: Outcome;
            try {
              outcome = await deliver(row);
            } catch (err) {
              // The lease expires and recovery looks in the history before posting again.
              if (isDatabaseUnavailable(err)) outage = err;
              else logger.error({ err, outboxId: row.id }, 'delivering an outbox row failed unexpectedly');
              continue;
            }
            count(row, outcome);
            if (outcome !== 'deferred') result[outcome] += 1;
          }
        }),
      );
      // The database stopped answering: the loop backs off and drains again afterwards.
      if (outage !== undefined) throw outage;
    }
    if (drainState.delivered && !drainState.gaveUp) await options.health?.clear(DELIVERY_FLAG);
    return result;
  }

  // One drain at a time per relay; a call during a drain runs after it.
  let chain: Promise<unknown> = Promise.resolve();
  const drainOnce = (): Promise<DrainResult> => {
    const run = chain.then(drain, drain);
    chain = run.catch(() => {});
    return run;
  };

  let loop: Promise<void> | undefined;
  return {
    drainOnce,
    recoverSending,
    start(intervalMs) {
      if (loop) return;
      const controller = new AbortController();
      stopping = controller;
      // Two things end the wait between drains: a nudge (held alerts just released go out
      // now; one during a drain means another drain right after it) and the database
      // answering again after an outage (drain now instead of at the end of the back-off).
      let nudged = false;
      let databaseBack = false;
      let wake = new AbortController();
      const stopNudges = deps.deliveryNudge?.onNudge(() => {
        nudged = true;
        wake.abort();
      });
      const stopWatching = deps.database?.onChange((s) => {
        if (!s.reachable) return;
        databaseBack = true;
        wake.abort();
      });
      loop = (async () => {
        let refused = 0;
        while (!controller.signal.aborted) {
          nudged = false;
          databaseBack = false;
          let wait = intervalMs;
          try {
            const r = await drainOnce();
            if (r.sent + r.failed + r.paused + r.recovered > 0) logger.debug({ ...r }, 'outbox drained');
            // Wake for the next row due before the interval ends (a digest at its time); the
            // floor keeps a row deferred by its channel's pace from spinning the loop.
            const next = await outbox.nextPendingAt();
            if (next !== null) wait = Math.min(intervalMs, Math.max(next - clock.now(), 20));
            refused = 0;
          } catch (err) {
            if (isDatabaseUnavailable(err)) {
              wait = backoffDelay(refused++, OUTAGE_BACKOFF);
              logger.debug({ retryInMs: wait }, 'outbox drain waits: the database cannot be used');
            } else logger.error({ err }, 'outbox drain failed');
          }
          // A nudge while the database refuses waits out the back-off like everything else.
          if ((nudged && refused === 0) || (databaseBack && refused > 0)) continue;
          if (wake.signal.aborted) wake = new AbortController();
          await clock.sleep(wait, AbortSignal.any([controller.signal, wake.signal])).catch(() => {});
        }
      })().finally(() => {
        stopNudges?.();
        stopWatching?.();
      });
    },
    async stop() {
      const controller = stopping ?? new AbortController();
      stopping = controller;
      controller.abort();
      await loop;
      await chain;
      loop = undefined;
      // Usable again afterwards (run-job drains, stops, and may drain once more).
      if (stopping === controller) stopping = undefined;
    },
  };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
