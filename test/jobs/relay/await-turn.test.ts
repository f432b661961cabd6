/**
 * The pace stage on its own: a claimed row waits at most one pace for its channel's slot
 * (shared through the store), and goes back to the queue, its attempt not counted, when
 * the turn is further off or its lease would run out first.
 */
import { describe, expect, it } from 'vitest';
import { awaitTurn } from '../../../src/jobs/relay/await-turn.js';
import { claimByChannel } from '../../../src/jobs/relay/claim-by-channel.js';
import type { RelayContext } from '../../../src/jobs/relay/relay-context.js';
import type { OutboxMessage } from '../../../src/store/outbox-repo.js';
import { ALERTS, useRelayFixture } from '../relay-fixture.js';

const f = useRelayFixture();

async function claimOne(ctx: RelayContext): Promise<OutboxMessage> {
  await f.enqueue({ dedupeKey: 'k1' });
  const row = (await claimByChannel(ctx)).flat()[0];
  if (!row) throw new Error('nothing was claimed');
  return row;
}

describe('awaitTurn', () => {
  it('takes a free channel at once, and the slot is then taken for every other relay', async () => {
    const ctx = f.context();
    const row = await claimOne(ctx);
    const before = f.clock.now();
    expect(await awaitTurn(ctx, row)).toBe(true);
    expect(f.clock.now()).toBe(before);
    const other = f.context({ owner: 'relay-b' });
    expect(await other.pacer.reserve(ALERTS, f.clock.now())).toEqual({ ok: false, readyAt: before + 1000 });
  });

  it('waits out the pace after a post to the channel, then takes the slot', async () => {
    const ctx = f.context({ paceMs: 400 });
    const row = await claimOne(ctx);
    const start = f.clock.now();
    expect(await ctx.pacer.reserve(ALERTS, start)).toEqual({ ok: true });
    await ctx.pacer.called(ALERTS, start);
    expect(await awaitTurn(ctx, row)).toBe(true);
    expect(f.clock.now()).toBe(start + 400);
    expect((await f.outbox.get(row.id))?.status).toBe('sending');
  });

  it('hands the row back for the end of a Retry-After longer than a pace, its attempt not counted', async () => {
    const ctx = f.context();
    const row = await claimOne(ctx);
    const start = f.clock.now();
    await ctx.pacer.blockUntil(ALERTS, start + 30_000);
    expect(await awaitTurn(ctx, row)).toBe(false);
    expect(f.clock.now()).toBe(start);
    expect(await f.outbox.get(row.id)).toMatchObject({ status: 'pending', nextAttemptAtMs: start + 30_000 });
    // requeue() hands back the attempt the claim counted.
    expect((await f.outbox.get(row.id))?.attempts).toBe(row.attempts - 1);
  });

  it('hands the row back without taking the slot when too little of its lease is left', async () => {
    const ctx = f.context({ leaseMs: 20_000 });
    const row = await claimOne(ctx);
    // Half the lease (10 s) is kept for the call; 9 s are left.
    f.clock.advance(11_000);
    expect(await awaitTurn(ctx, row)).toBe(false);
    expect(await f.outbox.get(row.id)).toMatchObject({ status: 'pending', nextAttemptAtMs: f.clock.now() });
    expect(await ctx.pacer.reserve(ALERTS, f.clock.now())).toEqual({ ok: true });
  });

  it('hands the row back once the relay is stopping', async () => {
    const ctx = f.context();
    const row = await claimOne(ctx);
    const stop = new AbortController();
    stop.abort();
    ctx.stopSignal = stop.signal;
    expect(await awaitTurn(ctx, row)).toBe(false);
    expect((await f.outbox.get(row.id))?.status).toBe('pending');
  });
});
