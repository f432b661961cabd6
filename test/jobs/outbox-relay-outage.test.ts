/**
 * The relay's loop while the database cannot be used (its SQLite file locked by another
 * connection, as another process would): it backs off (1 s doubling, a minute at most, by
 * backoff-delay.ts), logs no error for each try, and once the file is free again it
 * delivers the row that fell due meanwhile, once.
 */
import { describe, expect, it } from 'vitest';
import { createDatabaseHealth } from '../../src/database-health.js';
import { guardStore } from '../../src/guard-store.js';
import { sqliteWriteProbe } from '../../src/sqlite-write-probe.js';
import { captureLogger } from './job-fixture.js';
import { ALERTS, keyOf, OTHER, useRelayFixture } from './relay-fixture.js';

const f = useRelayFixture();

describe('outbox relay: a database outage', () => {
  it('backs off quietly while the file is locked and delivers once when it is free', async () => {
    const health = createDatabaseHealth({
      backend: 'sqlite',
      probe: sqliteWriteProbe(f.db, { waitMs: 5 }),
      clock: f.clock,
      logger: captureLogger(f.logs),
      retryEveryMs: 20,
    });
    try {
      f.db.pragma('busy_timeout = 10');
      const store = guardStore(f.store.store, health);
      await f.enqueue({ dedupeKey: 'during-outage', sendAfterMs: f.clock.now() + 500 });
      const holder = f.store.open();
      holder.exec('BEGIN EXCLUSIVE');
      const relay = f.relay({ store, outbox: store.outbox({ owner: 'relay-a' }), database: health });
      relay.start(50);
      const waits = () =>
        f.logs.filter((l) => l.msg.startsWith('outbox drain waits')).map((l) => l['retryInMs'] as number);
      // Each try the database refuses waits twice as long as the one before, up to a minute.
      await expect.poll(() => waits().length, { timeout: 10_000 }).toBeGreaterThanOrEqual(8);
      expect(waits().slice(0, 8)).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000]);
      expect(f.slack.callsTo('chat.postMessage')).toHaveLength(0);

      holder.exec('ROLLBACK');
      const [posted] = await f.slack.waitFor(
        () => f.slack.messages(ALERTS).length > 0 && f.slack.messages(ALERTS),
        10_000,
      );
      expect(keyOf(posted!)).toBe('during-outage');
      await relay.stop();
      expect(f.slack.callsTo('chat.postMessage')).toHaveLength(1);
      expect(await f.outbox.getByDedupeKey('during-outage')).toMatchObject({
        status: 'sent',
        slackTs: posted!.ts,
      });
      // The outage was logged once (a warning), each try only at debug, no error at all.
      expect(f.logs.filter((l) => l.level >= 50)).toEqual([]);
      expect(f.logs.filter((l) => l.msg.startsWith('the database cannot be used right now'))).toHaveLength(1);
    } finally {
      health.close();
    }
  });

  it('a post Slack took while the database went away is found in the history afterwards, not posted again', async () => {
    const health = createDatabaseHealth({
      backend: 'sqlite',
      probe: sqliteWriteProbe(f.db, { waitMs: 5 }),
      clock: f.clock,
      logger: captureLogger(f.logs),
      retryEveryMs: 20,
    });
    try {
      f.db.pragma('busy_timeout = 10');
      const store = guardStore(f.store.store, health);
      await f.enqueue({ dedupeKey: 'first', channelId: ALERTS });
      await f.enqueue({ dedupeKey: 'second', channelId: OTHER });
      const holder = f.store.open();
      // The file is taken the moment Slack has the first post: its row cannot be marked sent.
      const stopWatching = f.slack.onActivity((a) => {
        if (a.kind === 'call' && a.call.method === 'chat.postMessage') {
          stopWatching();
          holder.exec('BEGIN EXCLUSIVE');
        }
      });
      const relay = f.relay({ store, outbox: store.outbox({ owner: 'relay-a' }), database: health });
      relay.start(50);
      await expect.poll(() => health.snapshot().reachable, { timeout: 10_000 }).toBe(false);
      holder.exec('ROLLBACK');
      // The first row's claim runs out; the relay looks for it in the channel before anything else.
      f.clock.advance(120_000);
      await expect.poll(async () => (await f.outbox.counts()).sent, { timeout: 10_000 }).toBe(2);
      await relay.stop();
      const posts = f.slack.callsTo('chat.postMessage').map((c) => c.args['channel']);
      expect(posts.sort()).toEqual([ALERTS, OTHER].sort());
      expect(f.slack.callsTo('conversations.history').length).toBeGreaterThanOrEqual(1);
      expect(f.logs.filter((l) => l.level >= 50)).toEqual([]);
    } finally {
      health.close();
    }
  });
});
