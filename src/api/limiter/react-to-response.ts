/**
 * What the limiter learns from a response: the send's window time is settled (and its
 * grant-to-response time recorded), the X-RateLimit-* headers (when present) lower the
 * bucket or pause a window, and a 429 pauses the endpoint, and the whole key when the
 * limit is the key's. Which of the two a signal speaks of comes from its words when they
 * tell, else from our own accounting (attribute-limit.ts): a limit our endpoint windows
 * explain never lowers the key's bucket. Pauses go to the shared budget store, so every
 * process using the key pauses too.
 *
 * The decision is a pure function of the response, this process's own grants and the facts
 * read from the budget once the answered send is settled (decide-reaction.ts); it returns
 * the writes, which decide-reaction.ts applies to the budget.
 */
import type { Logger } from '../../logger.js';
import type { EndpointKey } from '../endpoint-table.js';
import type { PlanLimits } from '../plans.js';
import { attribute429, attributeRemaining, type EndpointAccounting } from './attribute-limit.js';
import type { BudgetWrite, ReactionFacts, ReactionQuery } from './budget-store.js';
import type { EndpointScope } from './endpoint-scope.js';
import { type LimitScope, limitScope } from './limit-scope.js';
import type { AnsweredGrant } from './own-grants.js';
import { retryDelayFromResponse } from './retry-delay-from-response.js';
import type { RateLimitObservation } from './types.js';

export interface ReactionContext {
  limits: PlanLimits;
  windowMs: number;
  defaultRetryAfterMs: number;
  maxJitterMs: number;
  random: () => number;
  logger?: Logger | undefined;
  /** A 429 of the key's bucket: the safety margin was too small. */
  recordKey429(nowMs: number): void;
}

/** What this process knew when the response came back (read before the store's transaction). */
export interface OwnView {
  /** The grant of ours this response answers (oldest first), if any. */
  own: AnsweredGrant | undefined;
  /** Tokens the safety margin keeps back now: how far the service may lag behind us. */
  marginTokens: number;
}

/** The facts a reaction to `o` needs the store to read. */
export function reactionQuery(
  ctx: Pick<ReactionContext, 'windowMs'>,
  { scope, limit }: EndpointScope,
  o: RateLimitObservation,
  now: number,
): ReactionQuery {
  const headerWindow =
    o.remaining !== undefined && o.remaining < 1 && o.resetAtMs !== undefined && o.resetAtMs > now;
  return {
    scope,
    limit,
    nowMs: now,
    headerSinceMs: headerWindow ? headerSinceMs(ctx.windowMs, o, now) : null,
  };
}

/**
 * A reset later than one window away is a clock disagreement, not a longer window: then
 * the window's start is unknown too, and the last full window is counted instead.
 */
function headerSinceMs(windowMs: number, o: RateLimitObservation, now: number): number {
  const resetAt = Math.min(o.resetAtMs!, now + windowMs);
  return o.resetAtMs! > now + windowMs ? now - windowMs : resetAt - windowMs;
}

export function reactToResponse(
  ctx: ReactionContext,
  endpoint: EndpointKey,
  window: EndpointScope,
  o: RateLimitObservation,
  now: number,
  view: OwnView,
  facts: ReactionFacts,
): BudgetWrite[] {
  const { limit } = window;
  const words = limitScope(o, { keyPerMinute: ctx.limits.perMinute, endpointPerMinute: limit });
  const accounting: EndpointAccounting = { limit, sends: facts.scopeSends };
  const kind =
    o.status === 429
      ? attribute429(words, accounting, facts.tokens)
      : o.remaining === undefined
        ? 'key'
        : attributeRemaining(words, o.remaining, accounting);
  const writes = adaptToHeaders(ctx, kind, window, o, view, facts, now);
  if (o.status !== 429) return writes;

  const delayMs = retryDelayFromResponse(o, ctx.defaultRetryAfterMs);
  const until = Math.ceil(now + delayMs + ctx.random() * ctx.maxJitterMs);
  if (kind === 'day') writes.push({ op: 'markDaySpent' });
  if (kind === 'key') ctx.recordKey429(now);
  // An endpoint's own limit: its window refills from `until` at its own rate. The key's
  // limit: the key's bucket restarts empty at `until` and drains everything at its rate.
  writes.push({ op: 'pauseScope', untilMs: until, drain: kind === 'endpoint' });
  if (kind !== 'endpoint') writes.push({ op: 'pauseKey', untilMs: until, restartEmpty: true });
  ctx.logger?.warn(
    { endpoint, limit: kind, pauseMs: until - now, serviceMessage: o.message },
    kind === 'endpoint'
      ? 'Rate limited (429): pausing the endpoint'
      : 'Rate limited (429): pausing the API key',
  );
  return writes;
}

/**
 * X-RateLimit-Remaining/Reset, when the service sends them (newer deployments may not).
 * A Remaining below what our own grants explain lowers the bucket by the shortfall (see
 * lowerToRemaining). "Remaining 0 until Reset" pauses until Reset
 * when our own send log shows that window spent (about Limit sends since it began): then
 * it is a window we can see, e.g. a fixed minute. Otherwise the 0 comes from a limit the
 * headers do not name, typically the key's bucket (docs/api.md §8 reads burst as a token
 * bucket, which refills continuously while a window's Reset can be a minute away), so the
 * bucket is emptied and refills at the plan's rate.
 */
function adaptToHeaders(
  ctx: ReactionContext,
  kind: LimitScope,
  { limit }: EndpointScope,
  o: RateLimitObservation,
  view: OwnView,
  facts: ReactionFacts,
  now: number,
): BudgetWrite[] {
  const { limits, windowMs } = ctx;
  const writes: BudgetWrite[] = [];
  if (o.remaining === undefined) return writes;
  // The endpoint's window is already enforced by our own send log; only the key's bucket
  // can hold more than the service says.
  if (kind !== 'endpoint' && o.remaining < limits.burst) writes.push(...lowerToRemaining(o.remaining, view));
  if (o.remaining >= 1 || o.resetAtMs === undefined || o.resetAtMs <= now) return writes;
  const resetAt = Math.min(o.resetAtMs, now + windowMs);
  const windowLimit = o.limit ?? (kind === 'endpoint' && limit !== null ? limit : limits.perMinute);
  const sent = kind === 'endpoint' ? facts.headerSends.scope : facts.headerSends.key;
  // "About": sends still in flight when the server counted its last may add a few.
  const spent = sent >= windowLimit && sent <= windowLimit + Math.max(2, Math.ceil(windowLimit / 10));
  if (kind === 'endpoint') {
    // Our log explains the 0; a fixed window may reset sooner than our sliding one.
    if (spent) writes.push({ op: 'pauseScope', untilMs: resetAt, drain: false });
  } else if (!spent) writes.push(...lowerToRemaining(0, view));
  else writes.push({ op: 'pauseKey', untilMs: resetAt, restartEmpty: false });
  return writes;
}

/**
 * The service's Remaining for a request we granted, against what our own accounting
 * expects of it: the level our bucket had right after that grant, less every request we
 * granted since (any of them may have reached the service first), less the margin the
 * service may lag behind us. Under load Remaining sits near 0 while our later grants are
 * still on their way; setting the bucket to it would forget those grants (the service
 * has yet to count them) and turn into 429s when they arrive. So only the shortfall
 * below the expectation, which some other client must have spent, is taken from the
 * bucket. A response we cannot match to a grant (another process's) is believed as is.
 */
function lowerToRemaining(remaining: number, { own, marginTokens }: OwnView): BudgetWrite[] {
  if (own === undefined) return [{ op: 'lowerTokens', atMost: remaining }];
  const expected = Math.floor(own.levelAfter - own.laterGrants - marginTokens);
  return remaining < expected ? [{ op: 'spendTokens', count: expected - remaining }] : [];
}
