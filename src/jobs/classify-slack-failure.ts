/**
 * What a failed Slack call means for the outbox relay. Slack answers errors as HTTP 200
 * `{ok:false,error}` (the call did nothing), limits as HTTP 429 + Retry-After (nothing
 * either), and anything else (a dropped connection, a timeout, a 5xx) leaves us not knowing
 * whether the message was accepted: `unconfirmed`, so the next attempt looks in the channel
 * history before posting again. https://docs.slack.dev/reference/methods/chat.postMessage#errors
 */
import { SLACK_ERROR_CODE as ErrorCode } from '../slack-client/web-api-codes.js';

/** The channel is gone or closed to the bot: pause its subscriptions, do not retry. */
const CHANNEL_GONE_ERRORS: ReadonlySet<string> = new Set([
  'channel_not_found',
  'is_archived',
  'not_in_channel',
  'restricted_action',
  'restricted_action_read_only_channel',
]);

/** Slack refused the blocks (or their size): the plain-text fallback still says it all. */
const CONTENT_REJECTED_ERRORS: ReadonlySet<string> = new Set([
  'invalid_blocks',
  'invalid_blocks_format',
  'msg_blocks_too_long',
  'msg_too_long',
]);

/** Our request itself is wrong; the same request will fail the same way every time. */
const PERMANENT_ERRORS: ReadonlySet<string> = new Set([
  'no_text',
  'invalid_metadata_format',
  'invalid_arguments',
  'too_many_attachments',
  'as_user_not_supported',
]);

/** Slack's documented default when a 429 carries no usable Retry-After. */
const DEFAULT_RETRY_AFTER_MS = 60_000;

type SlackFailure =
  | { kind: 'rate_limited'; code: string; retryAfterMs: number }
  | { kind: 'channel_gone'; code: string }
  | { kind: 'content_rejected'; code: string }
  | { kind: 'permanent'; code: string }
  | { kind: 'transient'; code: string; unconfirmed: boolean };

interface ErrorShape {
  code?: unknown;
  retryAfter?: unknown;
  statusCode?: unknown;
  data?: { error?: unknown };
  message?: unknown;
}

export function classifySlackFailure(err: unknown): SlackFailure {
  const e = (typeof err === 'object' && err !== null ? err : {}) as ErrorShape;
  switch (e.code) {
    case ErrorCode.RateLimitedError: {
      // Retry-After is in seconds.
      const sec = typeof e.retryAfter === 'number' && e.retryAfter >= 0 ? e.retryAfter : undefined;
      return {
        kind: 'rate_limited',
        code: 'ratelimited',
        retryAfterMs: sec === undefined ? DEFAULT_RETRY_AFTER_MS : sec * 1000,
      };
    }
    case ErrorCode.PlatformError: {
      const code = typeof e.data?.error === 'string' ? e.data.error : 'unknown_error';
      if (code === 'ratelimited' || code === 'rate_limited')
        return { kind: 'rate_limited', code, retryAfterMs: DEFAULT_RETRY_AFTER_MS };
      if (CHANNEL_GONE_ERRORS.has(code)) return { kind: 'channel_gone', code };
      if (CONTENT_REJECTED_ERRORS.has(code)) return { kind: 'content_rejected', code };
      if (PERMANENT_ERRORS.has(code)) return { kind: 'permanent', code };
      // internal_error, fatal_error, service_unavailable, token trouble, codes we do not
      // know: Slack said no, so nothing was posted; worth another try later.
      return { kind: 'transient', code, unconfirmed: false };
    }
    case ErrorCode.HTTPError: {
      const status = typeof e.statusCode === 'number' ? e.statusCode : 0;
      // A 5xx may come from a proxy after Slack stored the message.
      return { kind: 'transient', code: `http_${status}`, unconfirmed: status >= 500 || status === 0 };
    }
    default:
      // Request errors (connection reset, timeout) and anything unknown: the post may
      // have landed.
      return {
        kind: 'transient',
        code: e.code === ErrorCode.RequestError ? 'request_error' : 'unknown',
        unconfirmed: true,
      };
  }
}

/** A short description for logs and the row's last_error (never a token: errors carry none). */
export function describeSlackError(err: unknown): string {
  const f = classifySlackFailure(err);
  const message = err instanceof Error ? err.message : String(err);
  return f.kind === 'transient' && (f.code === 'request_error' || f.code === 'unknown')
    ? `${f.code}: ${message}`
    : f.code;
}
