/**
 * What an error from one brand's API calls means for the whole job run (docs/alert-semantics.md and
 * docs/runtime-contract.md):
 * - the daily quota is spent: stop, and wait for the reset instead of failing every brand;
 * - the key is rejected (401, or 403 outside AI Pages): the bot's own trouble, not the
 *   brand's; every other brand would fail the same way, so stop;
 * - the run was cancelled (shutdown): stop quietly;
 * - the database cannot be used (down, locked, too slow): every brand would fail the
 *   same way, so stop; the scheduler runs the job again once the database answers;
 * - the service cannot be reached (after the client's retries): every brand would fail
 *   the same way, so stop, saying it is the service; the next run tries again (an API
 *   error is never read as the database's: database-unavailable.ts);
 * - anything else concerns this brand only: count it and go on with the next.
 */
import {
  AbortedError,
  ForbiddenError,
  NetworkError,
  QuotaExhaustedError,
  UnauthorizedError,
} from '../api/errors.js';
import { isDatabaseUnavailable } from '../store/database-unavailable.js';

type JobError =
  | { kind: 'quota_spent'; resetAt: number }
  | { kind: 'key_rejected' }
  | { kind: 'aborted' }
  | { kind: 'database_unavailable' }
  | { kind: 'api_unreachable' }
  | { kind: 'brand_failed' };

export function classifyJobError(err: unknown): JobError {
  if (err instanceof QuotaExhaustedError) return { kind: 'quota_spent', resetAt: err.resetAt };
  // The rate budget lives in the database too: its failure reaches us as an API call's.
  if (err instanceof NetworkError) return { kind: 'api_unreachable' };
  if (isDatabaseUnavailable(err)) return { kind: 'database_unavailable' };
  // NoEntitlementError is its own class (403 on AI Pages), so it never lands here.
  if (err instanceof UnauthorizedError || err instanceof ForbiddenError) return { kind: 'key_rejected' };
  if (err instanceof AbortedError || (err as { name?: unknown } | null)?.name === 'AbortError')
    return { kind: 'aborted' };
  return { kind: 'brand_failed' };
}
