/**
 * Bolt's SocketModeReceiver with the same guard the HTTP receiver has, minus what the
 * socket already settles (it is authenticated by the app token, so there is no signature
 * or timestamp to check):
 *
 * 1. a payload that is not one of the requests this bot handles is acknowledged with
 *    nothing done and a warning logged (Bolt would trust its shape and throw);
 * 2. a redelivery (the envelope's `retry_attempt`) of a request already accepted, even
 *    before a restart, is acknowledged and dropped: a retried write must not be applied
 *    twice;
 * 3. a listener's throw is logged, never the end of the process.
 */
import {
  type App,
  type ReceiverEvent,
  SocketModeReceiver,
  type SocketModeReceiverOptions,
} from '@slack/bolt';
import { guardedApp, type RequestGuard } from './guarded-http-receiver.js';
import { readSlackPayload } from './read-slack-body.js';
import { createRedeliveryFilter, type RedeliveryFilter } from './redelivery-filter.js';

export class GuardedSocketModeReceiver extends SocketModeReceiver {
  readonly #guard: RequestGuard;
  readonly #redeliveries: RedeliveryFilter;

  constructor(options: SocketModeReceiverOptions, guard: RequestGuard) {
    super(options);
    this.#guard = guard;
    this.#redeliveries = createRedeliveryFilter(guard);
  }

  override init(app: App): void {
    const log = this.#guard.logger.child({ component: 'slack-request' });
    const safe = guardedApp(app, log);
    const processEvent = async (event: ReceiverEvent): Promise<void> => {
      const body = readSlackPayload(event.body);
      if (!body.ok) {
        log.warn(
          { code: 'slack_request_malformed', reason: body.reason },
          'ignored a payload the bot cannot handle',
        );
        await event.ack();
        return;
      }
      const { retryNum } = event;
      if (
        body.requestKey !== undefined &&
        (await this.#redeliveries.isRedelivery(body.requestKey, retryNum, this.#guard.clock.now()))
      ) {
        log.info(
          { code: 'slack_request_redelivered', kind: body.kind, retryNum, retryReason: event.retryReason },
          'acknowledged a redelivery of a request already handled',
        );
        await event.ack();
        return;
      }
      await safe.processEvent(event);
    };
    super.init(Object.assign(Object.create(safe) as App, { processEvent }));
  }
}
