import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { createDeliveryNudge } from '../../src/delivery-nudge.js';
import { OUTBOX_METADATA_EVENT } from '../../src/jobs/outbox-metadata.js';
import { createOutboxRelay, DELIVERY_FLAG } from '../../src/jobs/outbox-relay.js';
import { captureLogger } from './job-fixture.js';
import { ALERTS, keyOf, OTHER, relayWebClient, useRelayFixture } from './relay-fixture.js';

const f = useRelayFixture();

const posts = () => f.slack.callsTo('chat.postMessage');
/** Acme (brand-1) subscribed in ALERTS, as the rows the fixture enqueues assume. */
const subscribeAcme = () =>
  f.subscriptions.upsert({
    channelId: ALERTS,
    brandId: 'brand-1',
    brandName: 'Acme',
    createdBy: 'U1',
    createdAtMs: f.clock.now(),
  });

describe('outbox relay: delivery', () => {
  it('posts each row once, with its dedupe key in message metadata', async () => {
    await f.enqueue({
      dedupeKey: 'alerts:brand-1:aaa',
      payload: {
        text: 'Acme: 1 alert',
        blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'Cited page lost' } }],
        metadata: { event_type: 'visibility_alert', event_payload: { brand_id: 'brand-1', alert_count: 1 } },
      },
    });
    const relay = f.relay();
    const result = await relay.drainOnce();
    expect(result).toMatchObject({ sent: 1, retried: 0, failed: 0, paused: 0 });
    expect(await relay.drainOnce()).toMatchObject({ sent: 0 });

    expect(posts()).toHaveLength(1);
    expect(posts()[0]!.args).toMatchObject({
      channel: ALERTS,
      text: 'Acme: 1 alert',
      metadata: {
        event_type: OUTBOX_METADATA_EVENT,
        event_payload: {
          key: 'alerts:brand-1:aaa',
          kind: 'alert',
          brand_id: 'brand-1',
          alert_count: 1,
          message_type: 'visibility_alert',
        },
      },
    });
    const [message] = f.slack.messages(ALERTS);
    expect(keyOf(message!)).toBe('alerts:brand-1:aaa');
    const row = (await f.outbox.getByDedupeKey('alerts:brand-1:aaa'))!;
    expect(row).toMatchObject({ status: 'sent', slackTs: message!.ts, attempts: 1 });
  });

  it('a repeated enqueue of the same key is still one message', async () => {
    await f.enqueue({ dedupeKey: 'k1' });
    await f.enqueue({ dedupeKey: 'k1' });
    await f.relay().drainOnce();
    await f.enqueue({ dedupeKey: 'k1' });
    await f.relay().drainOnce();
    expect(posts()).toHaveLength(1);
  });

  it('paces posts to one channel at paceMs, measured on the wire, while other channels go at once', async () => {
    for (let i = 0; i < 4; i += 1) await f.enqueue({ dedupeKey: `a${i}` });
    await f.enqueue({ dedupeKey: 'b0', channelId: OTHER });
    const result = await f.relay({ paceMs: 250 }).drainOnce();
    expect(result.sent).toBe(5);

    const times = posts()
      .filter((c) => c.args['channel'] === ALERTS)
      .map((c) => c.at);
    expect(times).toHaveLength(4);
    for (let i = 1; i < times.length; i += 1) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(250);
    // In order, as written.
    expect(f.slack.messages(ALERTS).map(keyOf)).toEqual(['a0', 'a1', 'a2', 'a3']);
    // The other channel does not queue behind this one.
    const order = posts().map((c) => c.args['channel']);
    expect(order.indexOf(OTHER)).toBeLessThan(order.lastIndexOf(ALERTS));
    expect(order.indexOf(OTHER)).toBeLessThanOrEqual(1);
  });

  it('pacing holds across drains', async () => {
    const relay = f.relay({ paceMs: 400 });
    await f.enqueue({ dedupeKey: 'p1' });
    await relay.drainOnce();
    await f.enqueue({ dedupeKey: 'p2' });
    await relay.drainOnce();
    const [a, b] = posts();
    expect(b!.at - a!.at).toBeGreaterThanOrEqual(400);
  });

  it('a 429 holds the channel until Retry-After; the row is then delivered once, its attempt not counted', async () => {
    f.slack.rateLimit('chat.postMessage', { count: 1, retryAfterSec: 1 });
    await f.enqueue({ dedupeKey: 'r1' });
    await f.enqueue({ dedupeKey: 'r2' });
    await f.enqueue({ dedupeKey: 'o1', channelId: OTHER });
    const relay = f.relay({ paceMs: 100 });

    const first = await relay.drainOnce();
    expect(first).toMatchObject({ sent: 1, retried: 1 });
    expect(f.slack.messages(ALERTS)).toHaveLength(0);
    expect(f.slack.messages(OTHER).map(keyOf)).toEqual(['o1']);
    const limitedAt = posts()[0]!.at;
    expect((await f.outbox.getByDedupeKey('r1'))!.nextAttemptAtMs).toBe(limitedAt + 1000);

    // Before Retry-After is up nothing is tried.
    await relay.drainOnce();
    expect(posts().filter((c) => c.args['channel'] === ALERTS)).toHaveLength(1);

    f.clock.advance(1000);
    const second = await relay.drainOnce();
    expect(second.sent).toBe(2);
    expect(f.slack.messages(ALERTS).map(keyOf)).toEqual(['r1', 'r2']);
    const alertsCalls = posts().filter((c) => c.args['channel'] === ALERTS);
    expect(alertsCalls.map((c) => c.status)).toEqual([429, 200, 200]);
    expect(alertsCalls[1]!.at - limitedAt).toBeGreaterThanOrEqual(1000);
    expect(await f.outbox.getByDedupeKey('r1')).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('channel_not_found pauses the channel with the reason: one call, no retry storm', async () => {
    await subscribeAcme();
    f.slack.setChannelState(ALERTS, { exists: false });
    await f.enqueue({ dedupeKey: 'g1' });
    await f.enqueue({ dedupeKey: 'g2' });
    await f.enqueue({ dedupeKey: 'g3', brandId: 'brand-2' });
    await f.enqueue({ dedupeKey: 'ok', channelId: OTHER });
    const relay = f.relay();

    const result = await relay.drainOnce();
    expect(result).toMatchObject({ sent: 1, paused: 3, retried: 0 });
    expect(posts().filter((c) => c.args['channel'] === ALERTS)).toHaveLength(1);
    expect(posts()[0]!.response).toMatchObject({ ok: false, error: 'channel_not_found' });

    const sub = (await f.subscriptions.get(ALERTS, 'brand-1'))!;
    expect(sub.pausedReason).toContain('channel_not_found');
    expect(sub.pausedAtMs).not.toBeNull();
    for (const k of ['g1', 'g2', 'g3']) {
      const row = (await f.outbox.getByDedupeKey(k))!;
      expect(row.status).toBe('failed');
      expect(row.lastError).toContain('channel_not_found');
    }

    // Later rows for the paused subscription are not tried at all.
    await f.enqueue({ dedupeKey: 'g4' });
    f.clock.advance(60 * 60_000);
    const later = await relay.drainOnce();
    expect(later.paused).toBe(1);
    expect(posts().filter((c) => c.args['channel'] === ALERTS)).toHaveLength(1);
    expect((await f.outbox.getByDedupeKey('g4'))!.lastError).toContain('subscription paused');
  });

  it.each(['is_archived', 'not_in_channel'] as const)('%s pauses the channel too', async (state) => {
    await subscribeAcme();
    f.slack.setChannelState(ALERTS, state === 'is_archived' ? { isArchived: true } : { isMember: false });
    await f.enqueue({ dedupeKey: 'x1' });
    expect(await f.relay().drainOnce()).toMatchObject({ paused: 1 });
    expect((await f.subscriptions.get(ALERTS, 'brand-1'))!.pausedReason).toContain(`(${state})`);
    expect(posts()).toHaveLength(1);
  });

  it('invalid_blocks: the plain-text fallback is delivered, with the key', async () => {
    await f.enqueue({
      dedupeKey: 'bad-blocks',
      payload: {
        text: 'Acme: citation lost on example.com/pricing',
        // A section without text: Slack answers invalid_blocks.
        blocks: [{ type: 'section' }],
      },
    });
    const result = await f.relay().drainOnce();
    expect(result.sent).toBe(1);
    expect(posts().map((c) => c.response['error'] ?? 'ok')).toEqual(['invalid_blocks', 'ok']);
    const [message] = f.slack.messages(ALERTS);
    expect(message).toMatchObject({ text: 'Acme: citation lost on example.com/pricing', blocks: undefined });
    expect(keyOf(message!)).toBe('bad-blocks');
  });

  it('msg_blocks_too_long: the plain-text fallback is delivered', async () => {
    f.slack.failNext('chat.postMessage', 'msg_blocks_too_long');
    await f.enqueue({ dedupeKey: 'long' });
    expect(await f.relay().drainOnce()).toMatchObject({ sent: 1 });
    expect(posts()[1]!.args['blocks']).toBeUndefined();
    expect(f.slack.messages(ALERTS)).toHaveLength(1);
  });

  it('a transient failure is retried with exponential backoff, then delivered once', async () => {
    f.slack.failNext('chat.postMessage', 'internal_error', 2);
    await f.enqueue({ dedupeKey: 't1' });
    const relay = f.relay({ backoffBaseMs: 1000 });

    expect(await relay.drainOnce()).toMatchObject({ retried: 1 });
    const firstAt = posts()[0]!.at;
    expect(await f.outbox.getByDedupeKey('t1')).toMatchObject({
      status: 'pending',
      lastError: 'internal_error',
      nextAttemptAtMs: firstAt + 1000,
    });
    f.clock.advance(1000);
    expect(await relay.drainOnce()).toMatchObject({ retried: 1 });
    // Second retry waits twice as long.
    expect((await f.outbox.getByDedupeKey('t1'))!.nextAttemptAtMs).toBe(posts()[1]!.at + 2000);
    f.clock.advance(1000);
    expect(await relay.drainOnce()).toMatchObject({ sent: 0 });
    f.clock.advance(1000);
    expect(await relay.drainOnce()).toMatchObject({ sent: 1 });
    expect(posts()).toHaveLength(3);
    expect(f.slack.messages(ALERTS)).toHaveLength(1);
    expect(await f.outbox.getByDedupeKey('t1')).toMatchObject({ status: 'sent', attempts: 3 });
  });

  it('after maxAttempts the row fails, logged at error and raised as the bot’s trouble, never silently', async () => {
    const raised: string[] = [];
    f.slack.failNext('chat.postMessage', 'service_unavailable', 2);
    await f.enqueue({ dedupeKey: 'doomed' });
    const relay = f.relay({
      maxAttempts: 2,
      backoffBaseMs: 10,
      health: {
        raise: (flag, detail) => raised.push(`${flag} ${detail}`),
        clear: (flag) => raised.push(`cleared ${flag}`),
      },
    });
    await relay.drainOnce();
    f.clock.advance(10);
    const result = await relay.drainOnce();
    expect(result.failed).toBe(1);
    expect(posts()).toHaveLength(2);
    expect(await f.outbox.getByDedupeKey('doomed')).toMatchObject({ status: 'failed' });
    expect((await f.outbox.getByDedupeKey('doomed'))!.lastError).toMatch(
      /gave up after 2 attempts: service_unavailable/,
    );
    expect((await f.outbox.counts()).failed).toBe(1);
    expect(f.logs.some((l) => l.level === 50 && /gave up/.test(l.msg))).toBe(true);
    expect(raised).toEqual([expect.stringContaining(DELIVERY_FLAG)]);

    // The next message that gets through clears it.
    await f.enqueue({ dedupeKey: 'fine' });
    expect(await relay.drainOnce()).toMatchObject({ sent: 1 });
    expect(raised).toEqual([expect.stringContaining(DELIVERY_FLAG), `cleared ${DELIVERY_FLAG}`]);
  });

  it('a permanent request error fails at once', async () => {
    f.slack.failNext('chat.postMessage', 'invalid_metadata_format');
    await f.enqueue({ dedupeKey: 'perm' });
    expect(await f.relay().drainOnce()).toMatchObject({ failed: 1 });
    expect(posts()).toHaveLength(1);
  });

  it('a mute that began after the row was written holds it instead of posting', async () => {
    await subscribeAcme();
    await f.enqueue({ dedupeKey: 'm1' });
    const until = f.clock.now() + 60_000;
    await f.subscriptions.setMutedUntil(ALERTS, 'brand-1', until);
    expect(await f.relay().drainOnce()).toMatchObject({ held: 1, sent: 0 });
    expect(posts()).toHaveLength(0);
    expect(await f.outbox.getByDedupeKey('m1')).toMatchObject({ status: 'held', holdUntilMs: until });
  });

  it('a nudge ends the loop wait: a row released after a drain goes out without waiting out the interval', async () => {
    const nudge = createDeliveryNudge();
    // Real time and an hour's interval: without the nudge the row would wait an hour.
    const relay = createOutboxRelay(
      {
        store: f.store.store,
        web: relayWebClient(f.slack),
        clock: systemClock,
        logger: captureLogger(f.logs),
        deliveryNudge: nudge,
      },
      { owner: 'relay-nudged', paceMs: 1 },
    );
    const id = await f.enqueue({ dedupeKey: 'held-then-released', holdUntilMs: Date.now() + 3_600_000 });
    relay.start(3_600_000);
    try {
      // Queued behind the loop's first drain: once it resolves, the loop is waiting.
      await relay.drainOnce();
      expect(f.slack.messages(ALERTS)).toHaveLength(0);
      // What liftMute does: the hold ends now, then the relay is nudged.
      await f.outbox.rehold(id, Date.now());
      nudge.nudge();
      await f.slack.waitFor(() => f.slack.messages(ALERTS).length === 1);
      expect(f.slack.messages(ALERTS).map(keyOf)).toEqual(['held-then-released']);
    } finally {
      await relay.stop();
    }
    // Stopped: a nudge reaches no loop any more.
    nudge.nudge();
    expect(f.slack.callsTo('chat.postMessage')).toHaveLength(1);
  });

  it('start() delivers in the background and stop() waits for the drain', async () => {
    const relay = f.relay();
    await f.enqueue({ dedupeKey: 'bg' });
    relay.start(50);
    await f.slack.waitFor(() => f.slack.messages(ALERTS).length === 1);
    await relay.stop();
    expect((await f.outbox.getByDedupeKey('bg'))!.status).toBe('sent');
  });
});
