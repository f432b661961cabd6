/**
 * Effectively-once when the answer is lost: Slack accepted the post but the relay never
 * heard (dropped connection, timeout, a crashed process). Every case is checked on the wire:
 * chat.postMessage is called once per message, and conversations.history is what found it.
 */

import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { type LocalSlack, startLocalSlack } from '../../src/dev/local-slack/index.js';
import { outboxMetadata } from '../../src/jobs/outbox-metadata.js';
import { createOutboxRelay, type OutboxRelay, UNCONFIRMED } from '../../src/jobs/outbox-relay.js';
import { createSqliteStore } from '../../src/store/create-sqlite-store.js';
import type { OutboxRepo } from '../../src/store/outbox-repo.js';
import { tempDb } from '../store/temp-db.js';
import { captureLogger } from './job-fixture.js';
import { ALERTS, keyOf, OTHER, relayWebClient, useRelayFixture } from './relay-fixture.js';

const f = useRelayFixture();

const posts = () => f.slack.callsTo('chat.postMessage');
const histories = () => f.slack.callsTo('conversations.history');

describe('outbox relay: crash safety', () => {
  it('a post accepted but never answered (failAfterAccept) is found in history, not posted twice', async () => {
    f.slack.failAfterAccept('chat.postMessage');
    await f.enqueue({ dedupeKey: 'dropped-1' });
    const relay = f.relay({ backoffBaseMs: 1000 });

    expect(await relay.drainOnce()).toMatchObject({ retried: 1, sent: 0 });
    expect(posts()[0]!.dropped).toBe(true);
    const row = (await f.outbox.getByDedupeKey('dropped-1'))!;
    expect(row.status).toBe('pending');
    expect(row.lastError?.startsWith(UNCONFIRMED)).toBe(true);

    f.clock.advance(1000);
    expect(await relay.drainOnce()).toMatchObject({ sent: 1 });
    expect(posts()).toHaveLength(1);
    const messages = f.slack.messages(ALERTS);
    expect(messages).toHaveLength(1);
    expect(await f.outbox.getByDedupeKey('dropped-1')).toMatchObject({
      status: 'sent',
      slackTs: messages[0]!.ts,
    });

    const [history] = histories();
    // Form-encoded on the wire.
    expect(history!.args).toMatchObject({ channel: ALERTS, include_all_metadata: 'true' });
    // From a little before the row was created.
    expect(Number(history!.args['oldest'])).toBeLessThanOrEqual(row.createdAtMs / 1000);
  });

  it('when the history cannot be read, the unconfirmed post is not repeated blindly', async () => {
    f.slack.failAfterAccept('chat.postMessage');
    f.slack.failNext('conversations.history', 'internal_error');
    await f.enqueue({ dedupeKey: 'dropped-2' });
    const relay = f.relay({ backoffBaseMs: 1000 });
    await relay.drainOnce();
    f.clock.advance(1000);
    expect(await relay.drainOnce()).toMatchObject({ retried: 1, sent: 0 });
    expect(posts()).toHaveLength(1);
    f.clock.advance(2000);
    expect(await relay.drainOnce()).toMatchObject({ sent: 1 });
    expect(posts()).toHaveLength(1);
    expect(f.slack.messages(ALERTS)).toHaveLength(1);
  });

  it('an unconfirmed post that really did not land is posted once after the history check', async () => {
    // A 5xx-like failure: Slack answered, but we cannot tell what happened before it.
    await f.enqueue({ dedupeKey: 'lost-answer' });
    const row = (await f.outbox.getByDedupeKey('lost-answer'))!;
    await f.outbox.claimDue(f.clock.now(), 10);
    await f.outbox.markRetry(row.id, `${UNCONFIRMED}http_502`, f.clock.now());
    expect(await f.relay().drainOnce()).toMatchObject({ sent: 1 });
    expect(histories()).toHaveLength(1);
    expect(posts()).toHaveLength(1);
  });

  it('a post whose answer never comes (stallAfterAccept) times out and is then found, not reposted', async () => {
    f.slack.stallAfterAccept('chat.postMessage');
    await f.enqueue({ dedupeKey: 'stalled' });
    const relay = f.relay({ web: relayWebClient(f.slack, 200), backoffBaseMs: 500 });
    expect(await relay.drainOnce()).toMatchObject({ retried: 1 });
    expect(posts()[0]).toMatchObject({ stalled: true, response: { ok: true } });
    f.clock.advance(500);
    expect(await relay.drainOnce()).toMatchObject({ sent: 1 });
    expect(posts()).toHaveLength(1);
    expect(f.slack.messages(ALERTS).map(keyOf)).toEqual(['stalled']);
  });

  it('a crashed relay’s post (accepted, never marked) is recovered from history once its lease expires', async () => {
    f.slack.stallAfterAccept('chat.postMessage');
    await f.enqueue({ dedupeKey: 'crash-1' });
    // Relay A posts and "dies" waiting for the answer: its drain never completes here.
    const crashed = f.relay({ owner: 'relay-dead', leaseMs: 10_000, web: relayWebClient(f.slack, 60_000) });
    void crashed.drainOnce();
    await f.slack.waitFor(() => f.slack.messages(ALERTS).length === 1);
    expect(await f.outbox.getByDedupeKey('crash-1')).toMatchObject({
      status: 'sending',
      leaseOwner: 'relay-dead',
    });

    const survivor = f.relay({ owner: 'relay-b', leaseMs: 10_000 });
    // Lease still running: nobody touches the row.
    expect(await survivor.drainOnce()).toMatchObject({ recovered: 0, sent: 0 });
    expect(histories()).toHaveLength(0);

    f.clock.advance(10_000);
    const result = await survivor.drainOnce();
    expect(result).toMatchObject({ recovered: 1, sent: 0 });
    expect(posts()).toHaveLength(1);
    const [message] = f.slack.messages(ALERTS);
    expect(await f.outbox.getByDedupeKey('crash-1')).toMatchObject({ status: 'sent', slackTs: message!.ts });
  });

  it('a crashed relay’s row whose message is not in the channel is posted once', async () => {
    await f.enqueue({ dedupeKey: 'crash-2' });
    // Another message with a different key is in the channel: only the key counts.
    await relayWebClient(f.slack).chat.postMessage({
      channel: ALERTS,
      text: 'unrelated',
      metadata: outboxMetadata({ dedupeKey: 'someone-else', kind: 'alert', payload: { text: '' } }) as never,
    });
    await f.outbox.claimDue(f.clock.now(), 10, { owner: 'relay-dead', leaseMs: 1000 });
    f.clock.advance(1000);

    const relay = f.relay();
    const result = await relay.drainOnce();
    expect(result).toMatchObject({ recovered: 1, sent: 1 });
    expect(histories()).toHaveLength(1);
    expect(posts().map((c) => c.args['text'])).toEqual(['unrelated', 'Acme: alert crash-2']);
    expect(f.slack.messages(ALERTS).map(keyOf)).toEqual(['someone-else', 'crash-2']);
    // The recovery attempt is not counted against maxAttempts.
    expect(await f.outbox.getByDedupeKey('crash-2')).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('a failed history check leaves a crashed row in sending for the next look, not reposted', async () => {
    await f.enqueue({ dedupeKey: 'unknown' });
    await f.outbox.claimDue(f.clock.now(), 10, { owner: 'relay-dead', leaseMs: 1000 });
    f.clock.advance(1000);
    f.slack.failNext('conversations.history', 'internal_error');
    const relay = f.relay();
    expect(await relay.drainOnce()).toMatchObject({ recovered: 0, sent: 0 });
    expect(await f.outbox.getByDedupeKey('unknown')).toMatchObject({
      status: 'sending',
      leaseOwner: 'relay-dead',
    });
    expect(posts()).toHaveLength(0);
    expect(await relay.drainOnce()).toMatchObject({ recovered: 1, sent: 1 });
    expect(posts()).toHaveLength(1);
  });

  it('recovery does not requeue a row another relay re-claimed while the history was being read', async () => {
    const id = await f.enqueue({ dedupeKey: 'raced' });
    await f.outbox.claimDue(f.clock.now(), 10, { owner: 'relay-dead', leaseMs: 1000 });
    f.clock.advance(1000);
    const web = relayWebClient(f.slack);
    const plainFetch = globalThis.fetch;
    // While our history call is in flight, relay C recovers the row and claims it again.
    const racingWeb = new (web.constructor as typeof import('@slack/web-api').WebClient)(f.slack.botToken, {
      slackApiUrl: f.slack.url,
      rejectRateLimitedCalls: true,
      retryConfig: { retries: 0 },
      fetch: async (url, init) => {
        const res = await plainFetch(url, init);
        if (String(url).endsWith('conversations.history')) {
          await f.outbox.requeue(id, f.clock.now());
          await f.outbox.claimDue(f.clock.now(), 10, { owner: 'relay-c', leaseMs: 60_000 });
        }
        return res;
      },
    });
    const relay = f.relay({ web: racingWeb });
    expect(await relay.recoverSending()).toBe(0);
    expect(await f.outbox.getByDedupeKey('raced')).toMatchObject({
      status: 'sending',
      leaseOwner: 'relay-c',
    });
  });

  it('two relays on two connections draining at once deliver every row exactly once', async () => {
    const channels = [ALERTS, OTHER, 'C0THIRD01'];
    f.slack.addChannel({ id: 'C0THIRD01', name: 'third', isMember: true });
    for (let i = 0; i < 45; i += 1) await f.enqueue({ dedupeKey: `bulk-${i}`, channelId: channels[i % 3]! });
    const second = f.store.open();
    const a = f.relay({ owner: 'relay-a', paceMs: 5, batchSize: 4 });
    const b = f.relay({
      owner: 'relay-b',
      paceMs: 5,
      batchSize: 4,
      store: createSqliteStore(second, { closesDatabase: false }),
      outbox: createSqliteStore(second).outbox({ owner: 'relay-b' }),
    });
    const [ra, rb] = await Promise.all([a.drainOnce(), b.drainOnce()]);
    expect(ra.sent + rb.sent).toBe(45);
    expect(ra.sent).toBeGreaterThan(0);
    expect(rb.sent).toBeGreaterThan(0);
    expect(posts()).toHaveLength(45);
    const keys = channels.flatMap((c) => f.slack.messages(c).map(keyOf));
    expect(new Set(keys).size).toBe(45);
    expect(await f.outbox.counts()).toMatchObject({ sent: 45, pending: 0, sending: 0 });
  });
});

/**
 * A relay on the system clock and a fresh local Slack, with `rows` ops messages for the
 * Slack's default channel waiting (keys `<name>-0`, `<name>-1`, …); both closed afterwards.
 */
async function withRealTimeRelay(
  o: { name: string; rows: number; paceMs: number },
  test: (t: { slack: LocalSlack; outbox: OutboxRepo; relay: OutboxRelay }) => Promise<void>,
): Promise<void> {
  const slack = await startLocalSlack();
  const store = tempDb();
  try {
    const outbox = createSqliteStore(store.db).outbox();
    for (let i = 0; i < o.rows; i += 1)
      await outbox.enqueue({
        dedupeKey: `${o.name}-${i}`,
        channelId: slack.defaultChannelId,
        kind: 'ops',
        payload: { text: `${o.name} ${i}` },
        nowMs: Date.now(),
      });
    const relay = createOutboxRelay(
      { store: store.store, web: relayWebClient(slack), clock: systemClock, logger: captureLogger([]) },
      { owner: o.name, paceMs: o.paceMs },
    );
    await test({ slack, outbox, relay });
  } finally {
    await slack.close();
    store.close();
    await delay(0);
  }
}

describe('outbox relay: real time', () => {
  it('stop() ends a pacing wait at once and leaves the rest of the batch pending', async () => {
    // The pace is ten minutes, far past the test's timeout: stop() returning at all shows
    // it cut the wait short rather than sitting it out.
    await withRealTimeRelay({ name: 'stop', rows: 4, paceMs: 600_000 }, async ({ slack, outbox, relay }) => {
      relay.start(60_000);
      await slack.waitFor(() => slack.messages(slack.defaultChannelId).length === 1);
      await relay.stop();
      expect(slack.callsTo('chat.postMessage')).toHaveLength(1);
      expect(await outbox.counts()).toMatchObject({ sent: 1, pending: 3, sending: 0 });
    });
  });

  it('keeps at least paceMs between posts to one channel by the local Slack’s own clock', async () => {
    await withRealTimeRelay({ name: 'rt', rows: 3, paceMs: 60 }, async ({ slack, relay }) => {
      expect((await relay.drainOnce()).sent).toBe(3);
      const at = slack.callsTo('chat.postMessage').map((c) => c.at);
      expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(60);
      expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(60);
    });
  });
});
