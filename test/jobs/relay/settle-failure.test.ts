/**
 * What the relay does after Slack said no or nothing, on its own: a 429 is not an attempt,
 * and a row that used its attempts fails and is raised as the bot's trouble, unless the
 * channel shows it landed after all.
 */
import { describe, expect, it } from 'vitest';
import { claimByChannel } from '../../../src/jobs/relay/claim-by-channel.js';
import { postMessage } from '../../../src/jobs/relay/post-message.js';
import { DELIVERY_FLAG, type RelayContext } from '../../../src/jobs/relay/relay-context.js';
import { retryOrFail, settleFailure } from '../../../src/jobs/relay/settle-failure.js';
import type { OutboxMessage } from '../../../src/store/outbox-repo.js';
import { ALERTS, useRelayFixture } from '../relay-fixture.js';

const f = useRelayFixture();

async function claimOne(ctx: RelayContext): Promise<OutboxMessage> {
  await f.enqueue({ dedupeKey: 'k1' });
  const row = (await claimByChannel(ctx)).flat()[0];
  if (!row) throw new Error('nothing was claimed');
  return row;
}

function withHealth(ctx: RelayContext): string[] {
  const raised: string[] = [];
  ctx.health = { raise: (flag, detail) => raised.push(`${flag} ${detail}`), clear: () => {} };
  return raised;
}

describe('settleFailure', () => {
  it('a 429 holds the channel until its Retry-After and puts the row back, its attempt not counted', async () => {
    const ctx = f.context();
    const row = await claimOne(ctx);
    f.slack.rateLimit('chat.postMessage', { count: 1, retryAfterSec: 30 });
    const err = await postMessage(ctx, row, row.payload).catch((e: unknown) => e);
    const now = f.clock.now();

    expect(await settleFailure(ctx, row, err, true)).toBe('retried');
    expect(await f.outbox.get(row.id)).toMatchObject({
      status: 'pending',
      nextAttemptAtMs: now + 30_000,
      attempts: row.attempts - 1,
    });
    const otherRelay = f.context({ owner: 'relay-b' });
    expect(await otherRelay.pacer.reserve(ALERTS, now + 29_000)).toMatchObject({ ok: false });
    expect(await otherRelay.pacer.reserve(ALERTS, now + 30_000)).toEqual({ ok: true });
  });
});

describe('retryOrFail', () => {
  it('backs off while attempts remain, remembering that the last one may have landed', async () => {
    const ctx = f.context({ backoffBaseMs: 2000 });
    const raised = withHealth(ctx);
    const row = await claimOne(ctx);
    expect(await retryOrFail(ctx, row, 'the request timed out', true)).toBe('retried');
    expect(await f.outbox.get(row.id)).toMatchObject({
      status: 'pending',
      lastError: 'unconfirmed: the request timed out',
      nextAttemptAtMs: f.clock.now() + 2000,
    });
    expect(raised).toEqual([]);
  });

  it('gives up after the last attempt and raises the delivery flag', async () => {
    const ctx = f.context({ maxAttempts: 1 });
    const raised = withHealth(ctx);
    const row = await claimOne(ctx);
    expect(await retryOrFail(ctx, row, 'internal_error', true)).toBe('failed');
    expect(await f.outbox.get(row.id)).toMatchObject({
      status: 'failed',
      lastError: 'gave up after 1 attempts: internal_error',
    });
    expect(ctx.drain.gaveUp).toBe(true);
    expect(raised).toEqual([
      `${DELIVERY_FLAG} outbox #${row.id} to ${ALERTS}: gave up after 1 attempts: internal_error`,
    ]);
  });

  it('at the last attempt, finds an unconfirmed post in the channel instead of giving up', async () => {
    const ctx = f.context({ maxAttempts: 1 });
    const raised = withHealth(ctx);
    const row = await claimOne(ctx);
    const ts = await postMessage(ctx, row, row.payload);
    expect(await retryOrFail(ctx, row, 'the request timed out', true)).toBe('sent');
    expect(await f.outbox.get(row.id)).toMatchObject({ status: 'sent', slackTs: ts });
    expect(raised).toEqual([]);
    expect(ctx.drain).toMatchObject({ delivered: true, gaveUp: false });
  });
});
