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
import { ALERTS, keyOf, useRelayFixture } from './relay-fixture.js';

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
});
