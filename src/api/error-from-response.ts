/**
 * Maps a non-2xx response to the coded error classes of errors.ts, with a message a
 * person can act on: what happened, the service's own words, and `METHOD /path`. The
 * service text is scrubbed of the key before it is used (a service that echoes the
 * Authorization header must not leak it into Slack or logs).
 */
import type { EndpointKey } from './endpoint-table.js';
import {
  type ApiError,
  BadRequestError,
  ConflictError,
  ForbiddenError,
  InvalidResponseError,
  NoEntitlementError,
  NotFoundError,
  RateLimitedError,
  ServerError,
  UnauthorizedError,
} from './errors.js';

interface ErrorResponse {
  endpointKey: EndpointKey;
  /** `METHOD /path` */
  endpoint: string;
  status: number;
  /** Already extracted and scrubbed. */
  serviceMessage: string | undefined;
  /** From Retry-After or the 429 message. */
  retryAfterMs?: number | undefined;
}

/** docs/api.md §4.11: 403 on AI Pages means the plan lacks the entitlement, not a bad key. */
const ENTITLEMENT_ENDPOINTS: ReadonlySet<EndpointKey> = new Set(['getAiPages', 'getPrism']);

export function errorFromResponse(res: ErrorResponse): ApiError {
  const { status, endpoint, serviceMessage } = res;
  const details = { status, endpoint, serviceMessage };
  const say = (lead: string) =>
    `${lead}${serviceMessage ? `: ${serviceMessage}` : '.'} (HTTP ${status} from ${endpoint})`;

  if (status === 400) return new BadRequestError(say('The service refused the request'), details);
  if (status === 401) return new UnauthorizedError(say('The API key was not accepted'), details);
  if (status === 403) {
    if (ENTITLEMENT_ENDPOINTS.has(res.endpointKey)) {
      return new NoEntitlementError(say('Your plan does not include AI Pages'), details);
    }
    return new ForbiddenError(say('The API key is not allowed to do this'), details);
  }
  if (status === 404) return new NotFoundError(say('Not found'), details);
  if (status === 409) return new ConflictError(say('Conflict'), details);
  if (status === 429) {
    return new RateLimitedError(say('The API rate limit was hit'), {
      ...details,
      retryAfterMs: res.retryAfterMs,
    });
  }
  if (status >= 500) return new ServerError(say('The Brand Visibility service failed'), details);
  if (status >= 400) return new BadRequestError(say('The service refused the request'), details);
  // undici does not follow redirects and nothing else is expected: report it as a broken contract.
  return new InvalidResponseError(say('Unexpected response status'), details);
}
