/**
 * The one place that turns an error into text a Slack user reads (the bolt-js habit of
 * mapping receiver errors to statuses in one function). Marketing people read these:
 * they say what happened and what to do, and never carry a stack trace or a secret.
 * `expected: false` tells the caller to log the error with its stack. The service's own
 * words pass through plain-service-text.ts: no parameter names, endpoint paths or
 * response field paths reach a user.
 */
import {
  type ApiError,
  ApiErrorCode,
  InvalidParamsError,
  isApiError,
  QuotaExhaustedError,
  RateLimitedError,
} from '../api/errors.js';
import { isDatabaseUnavailable } from '../store/database-unavailable.js';
import { escapeMrkdwn, type Mrkdwn, mrkdwn, slackDate } from './mrkdwn.js';
import { parameterWords, plainServiceText } from './plain-service-text.js';
import { UserError } from './user-error.js';

export { UserError } from './user-error.js';

export interface ErrorExplanation {
  message: Mrkdwn;
  usage?: string;
  expected: boolean;
  /** Short id shown to the user and logged, for unexpected errors. */
  ref?: string;
}

const KEY_REJECTED = mrkdwn`The API key was rejected by the Brand Visibility service — ask an admin to check VISIBILITY_API_KEY.`;
const NOT_ANSWERING = mrkdwn`The Brand Visibility service is not answering, try again in a minute.`;
/**
 * The database is down, locked or too slow (a blip: a restart, a failover). Said the same
 * for a read and a write: every change the bot makes needs the database (its audit entry,
 * the subscription itself), and none was made.
 */
export const DATABASE_UNAVAILABLE = mrkdwn`visibility-bot can't reach its database right now, so nothing was changed. Try again in a minute.`;

/** Endpoints that need editor access (docs/api.md §5): a 403 there is about the role, not the key. */
const EDITOR_ONLY = ['/crawler/verification-ping', '/crawler/submit-to-search'];

/**
 * A 403 outside AI Pages normally means the key itself was rejected (docs/api.md §7). But a
 * brand-scoped 403 whose text names a role or a plan allowance ("viewer role cannot…",
 * "market limit reached for your plan") is about this brand or plan, and telling the user
 * the key is broken would send them to the wrong person: relay the service's words.
 */
const ROLE_OR_ALLOWANCE =
  /\b(role|viewer|editor|owner|permission|member|allow(ed|ance)?|limit|plan|maximum)\b/i;
const INVALID_KEY = /\b(api key|token|credential|unauthori[sz]ed|authenticat)/i;

function aboutRoleOrAllowance(message: string | undefined): boolean {
  return message !== undefined && ROLE_OR_ALLOWANCE.test(message) && !INVALID_KEY.test(message);
}

function serviceSays(err: { serviceMessage: string | undefined }, fallback: Mrkdwn): Mrkdwn {
  return plainServiceText(err.serviceMessage) ?? fallback;
}

/**
 * Our own check of a value before sending (validate-params.ts) names the parameter as the
 * code spells it (`days must be …`, `rangePreset "custom"`): said with the words instead.
 */
function invalidValueText(param: string | undefined, message: string): Mrkdwn {
  if (param === undefined) return plainServiceText(message) ?? mrkdwn`That value is not valid.`;
  const words = parameterWords(param);
  const escaped = param.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const reworded = message.replace(new RegExp(`\\b${escaped}\\b`, 'g'), words);
  const text = reworded === message ? `${words}: ${message}` : reworded;
  return plainServiceText(text[0]!.toUpperCase() + text.slice(1)) ?? mrkdwn`That value is not valid.`;
}

export function explainError(err: unknown): ErrorExplanation {
  if (err instanceof UserError) {
    return err.usage
      ? { message: err.message, usage: err.usage, expected: true }
      : { message: err.message, expected: true };
  }
  if (isDatabaseUnavailable(err)) return { message: DATABASE_UNAVAILABLE, expected: true };
  if (!isApiError(err)) {
    // node:crypto on first use, not when the module loads (a short run-job explains no error).
    const ref = process.getBuiltinModule('node:crypto').randomBytes(3).toString('hex');
    return {
      message: mrkdwn`Something went wrong on our side (ref \`${escapeMrkdwn(ref)}\`). It was logged; try again, or ask an admin to look it up.`,
      expected: false,
      ref,
    };
  }
  return explainApiError(err);
}

/**
 * A 403 is a key the service rejects, unless the endpoint is for editors only or the
 * service says it is about the role or the plan.
 */
function forbiddenExplanation(err: ApiError): ErrorExplanation {
  if (EDITOR_ONLY.some((p) => err.endpoint?.endsWith(p))) {
    return {
      message: mrkdwn`That needs editor access to this brand; your role on it is viewer.`,
      expected: true,
    };
  }
  if (aboutRoleOrAllowance(err.serviceMessage)) {
    const said = plainServiceText(err.serviceMessage);
    return {
      message: said
        ? mrkdwn`The service refused that: ${said}`
        : mrkdwn`The service refused that: your role on this brand or your plan does not allow it.`,
      expected: true,
    };
  }
  return { message: KEY_REJECTED, expected: true };
}

/** The service's refusal, said by kind: each code has its sentence, the service's words where they help. */
function explainApiError(err: ApiError): ErrorExplanation {
  switch (err.code) {
    case ApiErrorCode.Unauthorized:
      return { message: KEY_REJECTED, expected: true };
    case ApiErrorCode.Forbidden:
      return forbiddenExplanation(err);
    case ApiErrorCode.NoEntitlement:
      return { message: mrkdwn`Your plan does not include AI Pages.`, expected: true };
    case ApiErrorCode.NotFound:
      // The service's sentence says what is missing; "Not found:" in front of it only repeats it.
      return {
        message: serviceSays(err, mrkdwn`The service has nothing under that name or id.`),
        expected: true,
      };
    case ApiErrorCode.Conflict:
      return { message: serviceSays(err, mrkdwn`That already exists.`), expected: true };
    case ApiErrorCode.BadRequest:
      return {
        message: mrkdwn`The service refused that: ${serviceSays(err, mrkdwn`the request was not valid.`)}`,
        expected: true,
      };
    case ApiErrorCode.InvalidParams: {
      const param = err instanceof InvalidParamsError ? err.param : undefined;
      return { message: invalidValueText(param, err.message), expected: true };
    }
    case ApiErrorCode.RateLimited: {
      const after = err instanceof RateLimitedError ? err.retryAfterMs : undefined;
      const wait = after ? mrkdwn`in about ${Math.max(1, Math.ceil(after / 1000))} s` : mrkdwn`in a minute`;
      return {
        message: mrkdwn`The Brand Visibility service is rate-limiting this API key right now; try again ${wait}.`,
        expected: true,
      };
    }
    case ApiErrorCode.QuotaExhausted: {
      const reset =
        err instanceof QuotaExhaustedError ? mrkdwn` It resets ${slackDate(err.resetAt)}.` : mrkdwn``;
      return { message: mrkdwn`The API key's daily request quota is spent.${reset}`, expected: true };
    }
    case ApiErrorCode.Server:
    case ApiErrorCode.Network:
    case ApiErrorCode.Timeout:
      return { message: NOT_ANSWERING, expected: true };
    case ApiErrorCode.Aborted:
      return {
        message: mrkdwn`The request was cancelled (the bot may be restarting); try again.`,
        expected: true,
      };
    case ApiErrorCode.InvalidResponse:
      // Our schema or their payload is off: worth a log line with details.
      return {
        message: mrkdwn`The Brand Visibility service sent an answer the bot could not read. It was logged; try again later.`,
        expected: false,
      };
  }
}
