/**
 * Rows written ahead of their time (a digest prepared before its local time): never
 * claimed before `sendAfterMs`, due at once when `sendNow` says so, and claims take one
 * row per channel when asked so no channel waits behind another's queue.
 */
import { describe, expect, it } from 'vitest';
import type { NewOutboxMessage } from '../../src/store/outbox-repo.js';
import { useTempOutbox } from './temp-db.js';

const ctx = useTempOutbox();

const NOW = 1_000_000;
const AT = NOW + 45 * 60_000;
const digest = (channel: string, n: number, extra: Partial<NewOutboxMessage> = {}): NewOutboxMessage => ({
  dedupeKey: `${channel}:digest:b${n}:2026-11-24`,
  channelId: channel,
  brandId: `b${n}`,
  kind: 'digest',
  payload: { text: `digest ${channel} ${n}` },
  nowMs: NOW,
  ...extra,
});

describe('outbox rows with a send-after time', () => {
  it('are not claimed a millisecond before their time, and are claimed at it', async () => {
    const { id } = await ctx.outbox.enqueue(digest('C1', 1, { sendAfterMs: AT }));
    expect(await ctx.outbox.get(id)).toMatchObject({ status: 'pending', sendAfterMs: AT });
    expect(await ctx.outbox.nextPendingAt()).toBe(AT);
    expect(await ctx.outbox.claimDue(NOW, 10)).toEqual([]);
    expect(await ctx.outbox.claimDue(AT - 1, 10)).toEqual([]);
    expect((await ctx.outbox.claimDue(AT, 10)).map((r) => r.id)).toEqual([id]);
  });

  it('a send-after time already past is no floor', async () => {
    const { id } = await ctx.outbox.enqueue(digest('C1', 1, { sendAfterMs: NOW - 1 }));
    expect((await ctx.outbox.get(id))!.sendAfterMs).toBeNull();
    expect((await ctx.outbox.claimDue(NOW, 10)).map((r) => r.id)).toEqual([id]);
  });

  it('sendNow makes a row written ahead due at once, and only such a row', async () => {
    const ahead = await ctx.outbox.enqueue(digest('C1', 1, { sendAfterMs: AT }));
    const plain = await ctx.outbox.enqueue(digest('C1', 2));
    expect(await ctx.outbox.sendNow(digest('C1', 2).dedupeKey, NOW)).toBe(false);
    expect(await ctx.outbox.sendNow(digest('C1', 1).dedupeKey, NOW + 10)).toBe(true);
    expect(await ctx.outbox.nextPendingAt()).toBe(NOW);
    expect((await ctx.outbox.claimDue(NOW + 10, 10)).map((r) => r.id).sort()).toEqual(
      [ahead.id, plain.id].sort(),
    );
    // Claimed: no longer pending, so sendNow has nothing to move.
    expect(await ctx.outbox.sendNow(digest('C1', 1).dedupeKey, NOW + 20)).toBe(false);
  });

  it('with perChannel 1 a claim takes the oldest row of each channel, in order', async () => {
    for (let n = 1; n <= 3; n += 1) await ctx.outbox.enqueue(digest('CBUSY', n));
    await ctx.outbox.enqueue(digest('CQUIET', 9));
    const first = await ctx.outbox.claimDue(NOW, 2, { perChannel: 1 });
    expect(first.map((r) => r.payload.text)).toEqual(['digest CBUSY 1', 'digest CQUIET 9']);
    expect((await ctx.outbox.claimDue(NOW, 2, { perChannel: 1 })).map((r) => r.payload.text)).toEqual([
      'digest CBUSY 2',
    ]);
    // Without a cap, one channel's rows fill the batch as before.
    expect((await ctx.outbox.claimDue(NOW, 5)).map((r) => r.payload.text)).toEqual(['digest CBUSY 3']);
  });
});
