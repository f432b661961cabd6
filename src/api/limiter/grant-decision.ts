/**
 * One grant decision: the first waiter (of the queue's heads, in priority order) that the
 * shared budget lets go now, or how long until one may, or why nobody can (the daily quota
 * is spent; the store failed). The store decides under its lock (decide-take.ts); this adds
 * what only this process knows: the safety margin every lane leaves, and the reserve the
 * background lane leaves for people's calls (create-rate-limiter.ts says why).
 */
import type { Clock } from '../../clock.js';
import { type BudgetStore, BudgetStoreError, type TakeResult } from './budget-store.js';
import type { EndpointScope } from './endpoint-scope.js';
import type { InteractiveReserve } from './interactive-reserve.js';
import type { OwnGrants } from './own-grants.js';
import type { SafetyMargin } from './safety-margin.js';
import type { SerialTurns } from './serial-turns.js';
import type { Lane } from './types.js';

/** Window slots the background lane leaves for interactive callers (tokens: InteractiveReserve). */
const BACKGROUND_RESERVE = 1;

export interface GrantContext {
  store: Pick<BudgetStore, 'takeFirst'>;
  clock: Clock;
  /** The store operations of this process, in the order issued. */
  turns: SerialTurns;
  margin: SafetyMargin;
  reserve: InteractiveReserve;
  ownGrants: OwnGrants;
  /** The key's bucket size. */
  burst: number;
}

type GrantOutcome<W> =
  | { kind: 'granted'; waiter: W; nowMs: number }
  | { kind: 'wait'; waitMs: number }
  | { kind: 'quota'; resetAt: number }
  | { kind: 'failed'; error: BudgetStoreError };

export async function decideGrant<W extends EndpointScope & { readonly lane: Lane }>(
  ctx: GrantContext,
  heads: readonly W[],
): Promise<GrantOutcome<W>> {
  const now = ctx.clock.now();
  const headroom = ctx.margin.tokens(now);
  const backgroundReserve = ctx.reserve.tokens(now);
  let result: TakeResult;
  try {
    result = await ctx.turns.run(() =>
      ctx.store.takeFirst(
        () => ctx.clock.now(),
        heads.map((w) => ({
          scope: w.scope,
          limit: w.limit,
          tokensLeft: (w.lane === 'background' ? backgroundReserve : 0) + headroom,
          slotsLeft: w.lane === 'background' ? BACKGROUND_RESERVE : 0,
        })),
      ),
    );
  } catch (error) {
    // The store failed (closed, unreachable, locked too long): nobody can be paced.
    const failure =
      error instanceof BudgetStoreError
        ? error
        : new BudgetStoreError('The rate budget could not grant a request.', error);
    return { kind: 'failed', error: failure };
  }
  noteFullBucket(ctx, result, now);
  if (result.kind === 'granted') {
    ctx.margin.granted(result.nowMs);
    ctx.ownGrants.granted(result.nowMs, result.tokensBefore - 1);
    return { kind: 'granted', waiter: heads[result.index]!, nowMs: result.nowMs };
  }
  return result;
}

/**
 * A full bucket (ours, so the service's too) wipes out any lag between the two, once every
 * request granted before has been answered: one still on its way has yet to be counted by
 * the service, which is then not as full as ours (a first answer slower than the bucket
 * takes to refill, e.g. a cold start on a loaded machine).
 */
function noteFullBucket(ctx: GrantContext, result: TakeResult, now: number): void {
  if (
    result.kind !== 'quota' &&
    result.tokensBefore !== undefined &&
    result.tokensBefore >= ctx.burst &&
    ctx.ownGrants.inFlight(now) === 0
  ) {
    ctx.margin.bucketFull();
  }
}
