import { AbortedError } from '../errors.js';

/** The error `acquire` rejects with when its signal aborts or the limiter closes. */
export function abortedWhileWaiting(
  reason: unknown,
  message = 'The request was aborted while it waited for the rate limiter.',
): AbortedError {
  return new AbortedError(message, { cause: reason });
}
