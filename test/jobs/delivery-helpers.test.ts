/**
 * The delivery helpers around the relay: run-job's drain that waits for rows due soon
 * (a 429's Retry-After) but not for long backoffs, and the hand-back of rows a dead process
 * of this host left in 'sending'.
 */
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { deliverOutbox } from '../../src/jobs/deliver-outbox.js';
import { type DrainResult, emptyDrainResult, UNCONFIRMED } from '../../src/jobs/outbox-relay.js';
import { isDeadLocalOwner, processOwner } from '../../src/jobs/process-owner.js';
import { releaseDeadOwnerRows } from '../../src/jobs/release-dead-owner-rows.js';
import { manualClock } from '../helpers/manual-clock.js';
import { useTempOutbox } from '../store/temp-db.js';

const ctx = useTempOutbox();

const T = 1_000_000;
const row = (n: number, nowMs = T) =>
  ctx.outbox.enqueue({
    dedupeKey: `k${n}`,
    channelId: 'C1',
    brandId: 'b1',
    kind: 'alert',
    payload: { text: `m${n}` },
    nowMs,
  });
const result = (sent: number): DrainResult => ({ ...emptyDrainResult(), sent });

describe('deliverOutbox', () => {
  it('drains again when a row is due within the wait, and leaves rows due later', async () => {
    const clock = manualClock(T);
    const drains: number[] = [];
    // A relay that sends what is due and puts row 2 back for 2 s once (a 429).
    const relay = {
      async drainOnce() {
        drains.push(clock.now());
        let sent = 0;
        for (const r of await ctx.outbox.claimDue(clock.now(), 10)) {
          if (r.dedupeKey === 'k2' && drains.length === 1) await ctx.outbox.requeue(r.id, clock.now() + 2000);
          else if (await ctx.outbox.markSent(r.id, 'ts', clock.now())) sent += 1;
        }
        return result(sent);
      },
    };
    await row(1);
    await row(2);
    const d = await deliverOutbox(relay, ctx.outbox, clock, { maxWaitMs: 10_000 });
    expect(d).toMatchObject({ sent: 2, pending: 0 });
    expect(drains).toEqual([T, T + 2000]);

    // Due in 5 minutes: not waited for.
    const later = (await row(3)).id;
    await ctx.outbox.claimDue(T + 2000, 10);
    await ctx.outbox.markRetry(later, 'http_503', T + 2000 + 300_000);
    const d2 = await deliverOutbox(relay, ctx.outbox, clock, { maxWaitMs: 10_000 });
    expect(d2).toMatchObject({ sent: 0, pending: 1 });
  });
});

describe('deliverOutbox with nothing to post', () => {
  const counting = () => {
    const relay = {
      drains: 0,
      async drainOnce() {
        relay.drains += 1;
        return result(0);
      },
    };
    return relay;
  };

  it('does not drain an outbox with no row pending, held or being sent', async () => {
    const clock = manualClock(T);
    const relay = counting();
    await row(1);
    await ctx.outbox.claimDue(T, 10);
    await ctx.outbox.markSent((await ctx.outbox.getByDedupeKey('k1'))!.id, 'ts', T);
    expect(await deliverOutbox(relay, ctx.outbox, clock, { maxWaitMs: 10_000 })).toMatchObject({
      sent: 0,
      pending: 0,
    });
    expect(relay.drains).toBe(0);
  });

  it('drains when a row is held (its hold may have ended) or left in sending (to recover)', async () => {
    // The hold ended a second ago.
    const clock = manualClock(T + 2000);
    const held = counting();
    await ctx.outbox.enqueue({
      dedupeKey: 'held',
      channelId: 'C1',
      brandId: 'b1',
      kind: 'alert',
      payload: { text: 'held' },
      nowMs: T,
      holdUntilMs: T + 1000,
    });
    expect((await ctx.outbox.counts()).held).toBe(1);
    await deliverOutbox(held, ctx.outbox, clock, { maxWaitMs: 10_000 });
    expect(held.drains).toBe(1);

    const sending = counting();
    await ctx.outbox.releaseHeld(clock.now());
    await ctx.outbox.claimDue(clock.now(), 10);
    expect((await ctx.outbox.counts()).sending).toBe(1);
    await deliverOutbox(sending, ctx.outbox, clock, { maxWaitMs: 10_000 });
    expect(sending.drains).toBe(1);
  });
});

describe('rows of a dead process', () => {
  it('are handed back unconfirmed (history is checked first); live or remote owners are left alone', async () => {
    const dead = `run-job:${hostname()}:2147483646`;
    for (const [n, owner] of [
      [1, dead],
      [2, processOwner('serve')],
      [3, 'run-job:another-host:12'],
    ] as const) {
      await row(n);
      await ctx.outbox.claimDue(T, 1, { owner });
    }
    expect(isDeadLocalOwner(dead)).toBe(true);
    expect(isDeadLocalOwner(processOwner('serve'))).toBe(false);
    expect(isDeadLocalOwner('run-job:another-host:12')).toBe(false);
    expect(isDeadLocalOwner('not an owner')).toBe(false);

    expect(await releaseDeadOwnerRows(ctx.outbox, T)).toBe(1);
    const back = (await ctx.outbox.getByDedupeKey('k1'))!;
    expect(back).toMatchObject({ status: 'pending', leaseOwner: null });
    expect(back.lastError?.startsWith(UNCONFIRMED)).toBe(true);
    expect((await ctx.outbox.listSending()).map((r) => r.dedupeKey)).toEqual(['k2', 'k3']);
  });
});
