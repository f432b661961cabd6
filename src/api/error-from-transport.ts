/**
 * Normalises whatever undici (or a sleep) threw into the API layer's coded errors, keeping
 * the original as `cause`. Codes are undici's stable ones (lib/core/errors.js).
 */
import { AbortedError, type ApiError, isApiError, NetworkError, TimeoutError } from './errors.js';

const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);
const TIMEOUT_WHAT: Record<string, string> = {
  UND_ERR_CONNECT_TIMEOUT: 'connecting',
  UND_ERR_HEADERS_TIMEOUT: 'waiting for the response',
  UND_ERR_BODY_TIMEOUT: 'reading the response',
};

/** Local misuse or a closed client: retrying cannot help. */
const FATAL_CODES = new Set([
  'UND_ERR_INVALID_ARG',
  'UND_ERR_DESTROYED',
  'UND_ERR_CLOSED',
  'ERR_INVALID_URL',
]);

export function errorFromTransport(
  err: unknown,
  endpoint: string,
  signal: AbortSignal | undefined,
): ApiError {
  if (isApiError(err)) return err;
  const code = errorCode(err);
  if (signal?.aborted || code === 'UND_ERR_ABORTED' || (err instanceof Error && err.name === 'AbortError')) {
    return new AbortedError(`The request to ${endpoint} was cancelled.`, { endpoint, cause: err });
  }
  if (code !== undefined && TIMEOUT_CODES.has(code)) {
    const what = TIMEOUT_WHAT[code] ?? 'waiting';
    return new TimeoutError(`The Brand Visibility API timed out while ${what} (${endpoint}).`, {
      endpoint,
      cause: err,
    });
  }
  const why = err instanceof Error ? err.message : String(err);
  return new NetworkError(
    `Could not reach the Brand Visibility API (${endpoint}): ${why}${code && !why.includes(code) ? ` (${code})` : ''}.`,
    { endpoint, cause: err },
  );
}

/** Network failures and timeouts may be retried on idempotent requests. */
export function isRetryableTransportError(error: ApiError): boolean {
  if (error instanceof TimeoutError) return true;
  if (!(error instanceof NetworkError)) return false;
  const code = errorCode(error.cause);
  return code === undefined || !FATAL_CODES.has(code);
}

function errorCode(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}
