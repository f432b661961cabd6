/**
 * What only Postgres can show of the outbox claim (SQLite has one writer at a time, so a
 * claim there never overlaps another): while one replica's claim is still uncommitted,
 * another replica's claim neither waits for it nor takes its rows, and takes the oldest
 * rows of the other channels rather than the next row of a channel already being sent.
 */
import { describe, expect, it } from 'vitest';
import { migrations } from '../../../src/store/migrations/index.js';
import type { NewOutboxMessage } from '../../../src/store/outbox-repo.js';
import { createPostgresStore } from '../../../src/store/postgres/create-postgres-store.js';
import { migratePostgres } from '../../../src/store/postgres/migrate-postgres.js';
import { usePostgresDatabase } from '../../helpers/postgres-database.js';

const pg = usePostgresDatabase();
const NOW = 1_000_000;

const row = (channel: string, n: number): NewOutboxMessage => ({
  dedupeKey: `${channel}:alerts:${n}`,
  channelId: channel,
  brandId: 'b1',
  kind: 'alert',
  payload: { text: `${channel} ${n}` },
  nowMs: NOW + n,
});

describe('outbox claims on Postgres', () => {
  it('skip rows another replica holds in an uncommitted claim, without waiting for it', async () => {
    const first = pg.pool({ max: 2 });
    await migratePostgres(first, migrations);
    // A statement that waited for the other claim's lock would be cancelled after 2 s.
    const second = pg.pool({ max: 2, statementTimeoutMillis: 2000 });
    const onFirst = createPostgresStore(first, { closesDatabase: false });
    const a = onFirst.outbox({ owner: 'a' });
    const b = createPostgresStore(second, { closesDatabase: false }).outbox({ owner: 'b' });
    for (const channel of ['C1', 'C2', 'C3']) {
      for (let n = 1; n <= 3; n += 1) await a.enqueue(row(channel, n));
    }

    let release!: () => void;
    const holding = new Promise<void>((resolve) => {
      release = resolve;
    });
    let claimedByA: string[] = [];
    let claimedA!: () => void;
    const aClaimed = new Promise<void>((resolve) => {
      claimedA = resolve;
    });
    const aDone = onFirst.transaction(async () => {
      claimedByA = (await a.claimDue(NOW + 10, 2, { perChannel: 1 })).map((r) => r.payload.text);
      claimedA();
      await holding;
    });
    let claimedByB: string[];
    try {
      await Promise.race([aClaimed, aDone]);
      // a has not committed: b still sees C1 1 and C2 1 as pending, skips them, and takes
      // C3's oldest row, not C1 2 or C2 2 (those channels already have a row going out).
      claimedByB = (await b.claimDue(NOW + 10, 3, { perChannel: 1 })).map((r) => r.payload.text);
    } finally {
      release();
      await aDone;
    }
    expect(claimedByA).toEqual(['C1 1', 'C2 1']);
    expect(claimedByB).toEqual(['C3 1']);
    expect((await b.listSending()).map((r) => [r.payload.text, r.leaseOwner])).toEqual([
      ['C1 1', 'a'],
      ['C2 1', 'a'],
      ['C3 1', 'b'],
    ]);
    // Once a committed, the next claim moves on to each channel's next row.
    expect((await b.claimDue(NOW + 10, 3, { perChannel: 1 })).map((r) => r.payload.text)).toEqual([
      'C1 2',
      'C2 2',
      'C3 2',
    ]);
  });
});
