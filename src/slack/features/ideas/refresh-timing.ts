/**
 * How a content-ideas refresh is followed: poll GET /get-content-ideas every
 * `pollIntervalMs` until `meta.generation_status` leaves `generating`, for at most
 * `timeoutMs`. The defaults suit a generation that takes a minute or two; tests pass
 * milliseconds (the octokit `retryAfterBaseValue` habit).
 */
export interface RefreshTiming {
  pollIntervalMs: number;
  timeoutMs: number;
}

export const DEFAULT_REFRESH_TIMING: RefreshTiming = { pollIntervalMs: 10_000, timeoutMs: 5 * 60_000 };
