/**
 * Held alerts (quiet hours, mute) are delivered when the hold ends: the held messages of
 * one brand in one channel as one grouped message, once, never dropped.
 */
import { describe, expect, it } from 'vitest';
import { ALERT_ACTIONS } from '../../src/messages/alert-message.js';
import { groupHeldMessages } from '../../src/messages/held-alerts-message.js';
import { alert, alertMessage } from './alert-fixtures.js';
import { ALERTS, keyOf, OTHER, useRelayFixture } from './relay-fixture.js';

const f = useRelayFixture();

const HOUR = 3_600_000;
type Json = Record<string, unknown>;

function enqueueHeld(dedupeKey: string, subjects: string[], o: { channelId?: string; brand?: string } = {}) {
  const brand = { id: o.brand ?? 'brand-1', name: o.brand === 'brand-2' ? 'Globex' : 'Acme' };
  const m = alertMessage(subjects.map((s) => alert('citation_lost', s, brand)));
  return f.enqueue({
    dedupeKey,
    channelId: o.channelId ?? ALERTS,
    brandId: brand.id,
    payload: { text: m.text, blocks: m.blocks, metadata: m.metadata },
    holdUntilMs: f.clock.now() + HOUR,
  });
}

describe('held alerts', () => {
  it('are delivered as one grouped message per brand per channel when the hold ends', async () => {
    const ids = [
      await enqueueHeld('held-1', ['example.com/a']),
      await enqueueHeld('held-2', ['example.com/b', 'example.com/c']),
      await enqueueHeld('held-3', ['example.com/d']),
    ];
    await enqueueHeld('held-other-brand', ['globex.com/x'], { brand: 'brand-2' });
    await enqueueHeld('held-other-channel', ['example.com/e'], { channelId: OTHER });
    const relay = f.relay();

    expect(await relay.drainOnce()).toMatchObject({ sent: 0 });
    expect(f.slack.callsTo('chat.postMessage')).toHaveLength(0);

    f.clock.advance(HOUR);
    const result = await relay.drainOnce();
    expect(result).toMatchObject({ sent: 3, merged: 3, failed: 0 });

    // The local Slack validates blocks (unique block_ids, limits): it took all three.
    const posts = f.slack.callsTo('chat.postMessage');
    expect(posts.every((c) => c.response['ok'] === true)).toBe(true);
    const inAlerts = f.slack.messages(ALERTS);
    expect(inAlerts).toHaveLength(2);
    const grouped = inAlerts.find((m) => String(keyOf(m)).startsWith('held:'));
    expect(inAlerts.filter((m) => m !== grouped).map(keyOf)).toEqual(['held-other-brand']);
    expect(f.slack.messages(OTHER).map(keyOf)).toEqual(['held-other-channel']);

    const blocks = grouped!.blocks as Json[];
    expect(blocks[0]).toMatchObject({
      type: 'header',
      text: { text: '4 alerts held during quiet hours or a mute' },
    });
    const json = JSON.stringify(blocks);
    for (const s of ['example.com/a', 'example.com/b', 'example.com/c', 'example.com/d'])
      expect(json).toContain(s);
    const ackButtons = blocks
      .filter((b) => b['type'] === 'actions')
      .flatMap((b) => b['elements'] as Json[])
      .filter((e) => e['action_id'] === ALERT_ACTIONS.ack);
    expect(ackButtons).toHaveLength(1);
    expect(grouped!.text).toMatch(/^4 alerts held during quiet hours or a mute: /);
    expect(String(keyOf(grouped!))).toMatch(/^held:C0ALERTS1:brand-1:/);

    for (const id of ids) {
      expect(await f.outbox.get(id)).toMatchObject({
        status: 'sent',
        lastError: expect.stringMatching(/^merged into #/),
      });
    }

    // Once: nothing more on later drains.
    f.clock.advance(HOUR);
    expect(await relay.drainOnce()).toMatchObject({ sent: 0, merged: 0 });
    expect(f.slack.callsTo('chat.postMessage')).toHaveLength(3);
  });

  it('two relays releasing at once group the held rows once', async () => {
    await enqueueHeld('h1', ['example.com/1']);
    await enqueueHeld('h2', ['example.com/2']);
    f.clock.advance(HOUR);
    const [a, b] = await Promise.all([
      f.relay({ owner: 'a' }).drainOnce(),
      f.relay({ owner: 'b' }).drainOnce(),
    ]);
    expect(a.merged + b.merged).toBe(2);
    expect(a.sent + b.sent).toBe(1);
    expect(f.slack.messages(ALERTS)).toHaveLength(1);
  });

  it('messages too big for one are split into several groups, none dropped', () => {
    const big = Array.from({ length: 6 }, (_, i) =>
      alertMessage(
        ['a', 'b', 'c'].map((s) => alert('citation_lost', `example.com/${i}/${s}/${'x'.repeat(600)}`)),
      ),
    );
    const groups = groupHeldMessages(big);
    expect(groups.length).toBeGreaterThan(1);
    expect(groups.flatMap((g) => g.members)).toEqual([0, 1, 2, 3, 4, 5]);
    for (const g of groups) {
      if (!g.message) continue;
      expect(g.message.blocks.length).toBeLessThanOrEqual(50);
      expect(JSON.stringify(g.message.blocks).length).toBeLessThanOrEqual(12_000);
    }
  });
});
