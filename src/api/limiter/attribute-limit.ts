/**
 * Which of our two windows a rate-limit signal belongs to, decided by our own accounting
 * when the service's words cannot tell (limit-scope.ts says 'either'; on Scale a read
 * endpoint's 60/min is also the key's 60/min).
 *
 * The service reports the tightest of its limits. Our send log counts every send this key
 * made in the endpoint's window (all processes share it), and never fewer than the service
 * counted: sends are logged at grant and leave the log only after their response. So the
 * endpoint's true Remaining is at least `limit − sends`; a Remaining at or above that (give
 * or take one send counted at the boundary) is the endpoint's window speaking, and the
 * key's bucket is left alone: lowering it would throw the burst away (after 50 feed calls
 * the feed reports 10 left while the key still holds ~50). A Remaining below it is
 * something our log does not explain (another client on the key, a restart): the key's.
 */
import type { LimitScope, ReportedScope } from './limit-scope.js';

/** Sends the service may count that our log placed just outside the window (boundary). */
const BOUNDARY_SENDS = 1;

export interface EndpointAccounting {
  /** The endpoint window's limit; null = no per-endpoint window. */
  limit: number | null;
  /** Our sends in that window now. */
  sends: number;
}

/** A Remaining (from a successful response's headers): whose is it? */
export function attributeRemaining(
  words: ReportedScope,
  remaining: number,
  endpoint: EndpointAccounting,
): Exclude<LimitScope, 'day'> {
  if (words === 'key' || words === 'day' || endpoint.limit === null) return 'key';
  const endpointLeft = endpoint.limit - endpoint.sends;
  return remaining + BOUNDARY_SENDS >= endpointLeft ? 'endpoint' : 'key';
}

/**
 * A 429 whose words fit both: the endpoint's when our log shows its window spent while the
 * key's bucket still holds a token; otherwise the key's (pausing too much costs a little
 * time, too little costs more 429s).
 */
export function attribute429(
  words: ReportedScope,
  endpoint: EndpointAccounting,
  keyTokens: number,
): LimitScope {
  if (words !== 'either') return words;
  if (endpoint.limit === null) return 'key';
  const windowSpent = endpoint.sends + BOUNDARY_SENDS >= endpoint.limit;
  return windowSpent && keyTokens >= 1 ? 'endpoint' : 'key';
}
