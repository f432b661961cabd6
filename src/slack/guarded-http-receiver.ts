/**
 * Bolt's HTTPReceiver with a guard in front of POST /slack/events, so no request can
 * crash the process, earn a 5xx or be acted on twice:
 *
 * 1. the signature and timestamp are checked against our clock, refusing requests more
 *    than 5 minutes old or ahead (401; Bolt checks only the past, on the wall clock);
 * 2. the body must be one of the requests this bot handles (read-slack-body.ts); anything
 *    else is answered 200 with nothing done and a warning logged, because Bolt trusts a
 *    signed body and crashes (`payload=null`) or answers 500 (a click without `user`);
 * 3. a redelivery (`X-Slack-Retry-Num`) of a request already accepted, even before a
 *    restart, is acknowledged and dropped: a retried write must not be applied twice;
 * 4. Bolt's processing is wrapped: a throw is logged instead of becoming a 500, and a
 *    request no listener acknowledged (unknown action_id, callback_id or type) gets an
 *    empty 200 at once instead of Bolt's 404 after 3 s.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type App,
  type BufferedIncomingMessage,
  HTTPModuleFunctions,
  HTTPReceiver,
  type HTTPReceiverOptions,
  type ReceiverEvent,
} from '@slack/bolt';
import type { Clock } from '../clock.js';
import type { DatabaseHealth } from '../database-health.js';
import type { Logger } from '../logger.js';
import type { HandledRequestsRepo } from '../store/handled-requests-repo.js';
import { bodyDigest, readSlackBody } from './read-slack-body.js';
import { createRedeliveryFilter, type RedeliveryFilter } from './redelivery-filter.js';
import { verifySignedRequest } from './verify-signed-request.js';

const ENDPOINT = '/slack/events';

export interface RequestGuard {
  clock: Clock;
  logger: Logger;
  handledRequests: HandledRequestsRepo;
  database: Pick<DatabaseHealth, 'call' | 'owe'>;
}

function answer(res: ServerResponse, status: number): void {
  if (res.headersSent) return;
  res.writeHead(status);
  res.end();
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return typeof v === 'string' ? v : undefined;
}

function isEventsEndpoint(req: IncomingMessage): boolean {
  try {
    // The same test as Bolt's router, so nothing reaches its event handling unguarded.
    const { pathname } = new URL(req.url ?? '/', 'http://localhost');
    return pathname === ENDPOINT && (req.method ?? '').toUpperCase() === 'POST';
  } catch {
    return false;
  }
}

/** The app as a receiver sees it: processEvent never throws and always acknowledges. */
export function guardedApp(app: App, logger: Logger): App {
  const processEvent = async (event: ReceiverEvent): Promise<void> => {
    let acked = false;
    const ack: ReceiverEvent['ack'] = async (response) => {
      acked = true;
      await event.ack(response);
    };
    try {
      await app.processEvent({ ...event, ack });
    } catch (err) {
      logger.error({ err }, 'processing a Slack request failed; answered and kept serving');
    }
    if (acked) return;
    logger.warn('no listener acknowledged this Slack request; answered 200');
    try {
      await event.ack();
    } catch (err) {
      // Bolt's own 3 s timeout already answered; nothing more to send.
      logger.debug({ err }, 'late acknowledgement not sent');
    }
  };
  return Object.assign(Object.create(app) as App, { processEvent });
}

export class GuardedHTTPReceiver extends HTTPReceiver {
  readonly #guard: RequestGuard;
  readonly #signingSecret: string;
  readonly #bodyLimit: number | string;
  readonly #redeliveries: RedeliveryFilter;

  constructor(options: HTTPReceiverOptions, guard: RequestGuard) {
    // Signatures are verified by the guard (with our clock, both directions); Bolt's own
    // check would use the wall clock and see only the past.
    super({ ...options, endpoints: ENDPOINT, signatureVerification: false });
    this.#guard = guard;
    this.#redeliveries = createRedeliveryFilter(guard);
    this.#signingSecret = options.signingSecret;
    this.#bodyLimit = options.bodyLimit ?? HTTPModuleFunctions.defaultBodyLimit;
    const boltListener = this.requestListener;
    this.requestListener = (req, res) => {
      if (!isEventsEndpoint(req)) return boltListener(req, res);
      void this.#admit(req, res)
        .then((admitted) => {
          if (admitted) boltListener(admitted, res);
        })
        .catch((err: unknown) => {
          this.#guard.logger.error({ err }, 'a Slack request failed before Bolt; answered 200');
          answer(res, 200);
        });
    };
  }

  override init(app: App): void {
    super.init(guardedApp(app, this.#guard.logger.child({ component: 'slack-request' })));
  }

  /** The buffered request when Bolt should process it; undefined when already answered. */
  async #admit(req: IncomingMessage, res: ServerResponse): Promise<BufferedIncomingMessage | undefined> {
    const { clock } = this.#guard;
    const log = this.#guard.logger.child({ component: 'slack-request' });
    let buffered: BufferedIncomingMessage;
    try {
      buffered = await HTTPModuleFunctions.bufferIncomingMessage(req, this.#bodyLimit);
    } catch (err) {
      const tooLarge = HTTPModuleFunctions.isRawBodyError(err) && err.statusCode === 413;
      log.warn({ code: 'slack_request_unreadable', tooLarge }, 'could not read a Slack request body');
      answer(res, tooLarge ? 413 : 400);
      return undefined;
    }
    const rawBody = buffered.rawBody.toString();
    const body = readSlackBody(rawBody, header(req, 'content-type'));
    // Slack's ssl_check is unsigned by design; it is answered here and carries nothing.
    if (body.ok && body.kind === 'ssl_check') {
      answer(res, 200);
      return undefined;
    }
    const nowMs = clock.now();
    const signature = verifySignedRequest({
      signingSecret: this.#signingSecret,
      rawBody,
      signature: header(req, 'x-slack-signature'),
      timestamp: header(req, 'x-slack-request-timestamp'),
      nowMs,
    });
    if (!signature.ok) {
      log.warn(
        { code: 'slack_request_unverified', reason: signature.reason },
        'refused an unverified request',
      );
      answer(res, 401);
      return undefined;
    }
    if (!body.ok) {
      log.warn(
        { code: 'slack_request_malformed', reason: body.reason, digest: bodyDigest(rawBody) },
        'ignored a signed request the bot cannot handle',
      );
      answer(res, body.unparseable ? 400 : 200);
      return undefined;
    }
    if (body.requestKey !== undefined) {
      const retryNum = HTTPModuleFunctions.extractRetryNumFromHTTPRequest(req);
      if (await this.#redeliveries.isRedelivery(body.requestKey, retryNum, nowMs)) {
        log.info(
          {
            code: 'slack_request_redelivered',
            kind: body.kind,
            retryNum,
            retryReason: header(req, 'x-slack-retry-reason'),
          },
          'acknowledged a redelivery of a request already handled',
        );
        answer(res, 200);
        return undefined;
      }
    }
    return buffered;
  }
}
