import { describe, expect, it } from 'vitest';
import { claimByChannel, PER_CHANNEL_CLAIM } from '../../../src/jobs/relay/claim-by-channel.js';
import { ALERTS, OTHER, useRelayFixture } from '../relay-fixture.js';

const f = useRelayFixture();

const keys = (channels: { dedupeKey: string }[][]) => channels.map((rows) => rows.map((r) => r.dedupeKey));

describe('claimByChannel', () => {
  it('claims a few rows per channel, grouped by channel in the order written, under its lease', async () => {
    for (let i = 0; i < 4; i += 1) await f.enqueue({ dedupeKey: `a${i}` });
    await f.enqueue({ dedupeKey: 'b0', channelId: OTHER });
    const ctx = f.context({ leaseMs: 30_000 });

    const first = await claimByChannel(ctx);
    expect(PER_CHANNEL_CLAIM).toBe(2);
    expect(keys(first)).toEqual([['a0', 'a1'], ['b0']]);
    expect(first.flat().every((r) => r.channelId === (r.dedupeKey.startsWith('a') ? ALERTS : OTHER))).toBe(
      true,
    );
    expect(await f.outbox.get(first[0]![0]!.id)).toMatchObject({
      status: 'sending',
      leaseOwner: 'relay-a',
      leaseUntilMs: f.clock.now() + 30_000,
    });

    // A second relay does not get the claimed rows, only the rest.
    expect(keys(await claimByChannel(f.context({ owner: 'relay-b' })))).toEqual([['a2', 'a3']]);
    expect(await claimByChannel(ctx)).toEqual([]);
  });

  it('leaves a row written ahead until its time', async () => {
    await f.enqueue({ dedupeKey: 'later', kind: 'digest', sendAfterMs: f.clock.now() + 60_000 });
    const ctx = f.context();
    expect(await claimByChannel(ctx)).toEqual([]);
    f.clock.advance(60_000);
    expect(keys(await claimByChannel(ctx))).toEqual([['later']]);
  });
});
