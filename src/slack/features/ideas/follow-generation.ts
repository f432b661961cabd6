/**
 * After a refresh: watch `meta.generation_status` (docs/api.md §3) and, when the run is over,
 * replace the "generating" message with the fresh top ideas; after `timeoutMs`, replace it
 * with a "still running" note instead. The response_url allows 5 posts in 30 minutes:
 * this uses exactly one more, whatever happens. A passing API hiccup is retried on the
 * next tick; three failures in a row end the watch with the error text. A database that
 * cannot be used (every call needs the key's rate budget, which lives there) is no
 * failure of the watch: it waits, backing off, and goes on once the database answers.
 */

import type { Brand } from '../../../api/schemas/index.js';
import { backoffDelay } from '../../../backoff-delay.js';
import { explainError } from '../../../messages/explain-error.js';
import { mrkdwn } from '../../../messages/mrkdwn.js';
import { errorReply, type Reply } from '../../../messages/reply.js';
import { isDatabaseUnavailable } from '../../../store/database-unavailable.js';
import type { SlackDeps } from '../../kit/slack-deps.js';
import { ideasRefreshDoneReply, ideasRefreshStillRunningReply } from './ideas-refresh-view.js';
import type { RefreshTiming } from './refresh-timing.js';

type FollowOutcome = 'completed' | 'timeout' | 'failed' | 'aborted';

interface FollowOptions {
  deps: Pick<SlackDeps, 'api' | 'clock' | 'logger'>;
  brand: Pick<Brand, 'id' | 'name'>;
  respond(reply: Reply): Promise<void>;
  timing: RefreshTiming;
  /** How many fresh ideas the final message shows. */
  limit: number;
  signal: AbortSignal;
}

const MAX_FAILURES_IN_A_ROW = 3;

function stoppedReply(err: unknown): Reply {
  const facing = explainError(err);
  const reply = errorReply(err, {
    ...facing,
    message: mrkdwn`I stopped following the content ideas refresh: ${facing.message}`,
  });
  return { ...reply, replaceOriginal: true };
}

export async function followGeneration(o: FollowOptions): Promise<FollowOutcome> {
  const { deps, brand, signal } = o;
  const logger = deps.logger.child({ component: 'ideas-refresh', brandId: brand.id });
  const started = deps.clock.now();
  let failures = 0;
  /** Polls in a row the database refused; the next wait grows with them. */
  let refused = 0;
  const finish = async (reply: Reply, outcome: FollowOutcome): Promise<FollowOutcome> => {
    try {
      await o.respond(reply);
    } catch (err) {
      logger.warn({ err }, 'could not update the refresh message');
    }
    return outcome;
  };
  for (;;) {
    const wait =
      refused === 0
        ? o.timing.pollIntervalMs
        : backoffDelay(refused - 1, { baseDelayMs: o.timing.pollIntervalMs, maxDelayMs: 60_000 });
    try {
      await deps.clock.sleep(wait, signal);
    } catch {
      return 'aborted';
    }
    try {
      const response = await deps.api.getContentIdeas(
        { brandId: brand.id, status: 'active', limit: o.limit },
        { lane: 'background', signal },
      );
      failures = 0;
      if (refused > 0) logger.info('the database answers again: following the refresh again');
      refused = 0;
      // Anything but `generating` ends the run (docs/api.md shows only generating and completed).
      if (response.meta?.generation_status !== 'generating') {
        logger.info({ status: response.meta?.generation_status ?? null }, 'content ideas generation ended');
        return finish(ideasRefreshDoneReply(brand, response, o.limit), 'completed');
      }
    } catch (err) {
      if (signal.aborted) return 'aborted';
      if (isDatabaseUnavailable(err)) {
        if (refused === 0)
          logger.info('the database cannot be used: following the refresh again when it answers');
        refused += 1;
      } else {
        failures += 1;
        logger.warn({ err, failures }, 'polling content ideas failed');
        if (failures >= MAX_FAILURES_IN_A_ROW) return finish(stoppedReply(err), 'failed');
      }
    }
    const watched = deps.clock.now() - started;
    if (watched >= o.timing.timeoutMs)
      return finish(ideasRefreshStillRunningReply(brand, watched, o.limit), 'timeout');
  }
}
