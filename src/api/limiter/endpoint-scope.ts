/**
 * The per-endpoint window an endpoint counts against: its own, or its group's (docs/api.md §8:
 * the four brand writes share one 30/min window).
 */
import { ENDPOINTS, type EndpointKey, type EndpointSpec } from '../endpoint-table.js';

export interface EndpointScope {
  /** Storage name of the window: the endpoint key, or 'group:<name>'. */
  scope: string;
  /** Sends allowed per window; null = no per-endpoint limit (only the key's bucket). */
  limit: number | null;
}

/** `override`: undefined = docs/api.md's table; a number = that limit everywhere; null = none. */
export function endpointScope(endpoint: EndpointKey, override?: number | null): EndpointScope {
  const spec: EndpointSpec = ENDPOINTS[endpoint];
  return {
    scope: spec.group === undefined ? endpoint : `group:${spec.group}`,
    limit: override === undefined ? spec.perMinute : override,
  };
}
