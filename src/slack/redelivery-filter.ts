/**
 * Slack redelivers a request it thinks timed out: over HTTP with `X-Slack-Retry-Num`, in
 * Socket Mode with the envelope's `retry_attempt`. A redelivery of a request the bot
 * already accepted is acknowledged and dropped, so a retried write is never applied
 * twice. Accepted requests are remembered in the database (handled-requests-repo.ts), so
 * a redelivery that arrives after a restart is still recognised.
 *
 * The filter runs before the acknowledgement, so it never waits long for the database:
 * when the database cannot be used (or does not answer within DEADLINE_MS), the request
 * is remembered in this process instead and let through, to be answered by its handler
 * (which then finds the database down and says that nothing was changed). A redelivery
 * of it to this process is still dropped, and the key is written to the database as
 * soon as it answers again, so a redelivery after the outage, to any replica, is dropped
 * too: a request answered during the outage is not acted on a second time afterwards.
 */
import type { DatabaseHealth } from '../database-health.js';
import type { Logger } from '../logger.js';
import { isDatabaseUnavailable } from '../store/database-unavailable.js';
import { type HandledRequestsRepo, REDELIVERY_WINDOW_MS } from '../store/handled-requests-repo.js';

/** Slack retries up to 3 times within minutes; an hour leaves a wide margin. */
const REMEMBER_REQUESTS_MS = REDELIVERY_WINDOW_MS;
const PURGE_EVERY_MS = 10 * 60 * 1000;
/** The database's share of the 3 s Slack gives the acknowledgement. */
const DEADLINE_MS = 1000;
/** Requests remembered in this process while the database cannot be used, at most. */
const LOCAL_MAX = 10_000;

export interface RedeliveryFilter {
  /**
   * Records the request as accepted; true when it is a redelivery (`retryNum` set) of a
   * request already accepted, which the caller acknowledges and drops.
   */
  isRedelivery(requestKey: string, retryNum: number | undefined, nowMs: number): Promise<boolean>;
}

interface RedeliveryFilterDeps {
  handledRequests: HandledRequestsRepo;
  database: Pick<DatabaseHealth, 'call' | 'owe'>;
  logger: Pick<Logger, 'warn' | 'error'>;
}

export function createRedeliveryFilter(deps: RedeliveryFilterDeps): RedeliveryFilter {
  const { handledRequests: handled, database } = deps;
  let lastPurgeMs = 0;
  /** Requests accepted while the database could not be used: key → when. */
  const local = new Map<string, number>();

  function rememberLocally(requestKey: string, nowMs: number): boolean {
    const at = local.get(requestKey);
    const seen = at !== undefined && at >= nowMs - REMEMBER_REQUESTS_MS;
    if (!seen) {
      local.set(requestKey, nowMs);
      if (local.size > LOCAL_MAX) local.delete(local.keys().next().value!);
      database.owe('a handled Slack request', () =>
        handled.remember(requestKey, nowMs, REMEMBER_REQUESTS_MS),
      );
    }
    return seen;
  }

  return {
    async isRedelivery(requestKey, retryNum, nowMs) {
      let seen: boolean;
      try {
        seen = await database.call(() => handled.remember(requestKey, nowMs, REMEMBER_REQUESTS_MS), {
          deadlineMs: DEADLINE_MS,
        });
        // Accepted while the database was down, and not written there yet.
        const at = local.get(requestKey);
        seen ||= at !== undefined && at >= nowMs - REMEMBER_REQUESTS_MS;
      } catch (err) {
        // Let the request through rather than answer nothing: its handler tells the user.
        if (!isDatabaseUnavailable(err))
          deps.logger.error({ err }, 'the redelivery check failed; the request is let through');
        seen = rememberLocally(requestKey, nowMs);
      }
      if (nowMs - lastPurgeMs >= PURGE_EVERY_MS) {
        lastPurgeMs = nowMs;
        for (const [key, at] of local) if (at < nowMs - REMEMBER_REQUESTS_MS) local.delete(key);
        // Off the acknowledgement's path: housekeeping, whatever the database's state.
        void database
          .call(() => handled.purgeBefore(nowMs - REMEMBER_REQUESTS_MS))
          .catch((err: unknown) => {
            if (!isDatabaseUnavailable(err)) deps.logger.warn({ err }, 'purging handled requests failed');
          });
      }
      return seen && retryNum !== undefined;
    },
  };
}
