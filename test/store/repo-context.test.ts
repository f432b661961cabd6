/**
 * Prepared statements (repo-context.ts): built and compiled once, run with each call's
 * values where the caller is (inside a transaction, on its connection), and refused when a
 * parameter is not passed as a value (the compiled statement could not carry it).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { repoContext } from '../../src/store/repo-context.js';
import { sqliteDialect } from '../../src/store/sql-dialect.js';
import { sqliteStoreDb } from '../../src/store/sqlite-store-dialect.js';
import { type TempDb, tempDb } from './temp-db.js';

let t: TempDb;
beforeEach(() => {
  t = tempDb();
});
afterEach(() => t.close());

describe('prepared statements', () => {
  it('run with the values of each call, inside and outside a transaction', async () => {
    const ctx = repoContext(sqliteStoreDb(t.db), sqliteDialect, systemClock);
    const put = ctx.prepare((db, channelId: string, nextAtMs: number) =>
      db.insertInto('channel_pace').values({ channel_id: channelId, next_at_ms: nextAtMs }),
    );
    const get = ctx.prepare((db, channelId: string) =>
      db.selectFrom('channel_pace').select('next_at_ms').where('channel_id', '=', channelId),
    );
    await put('C1', 10);
    await expect(
      ctx.transaction(async () => {
        await put('C2', 20);
        expect((await get('C2')).rows).toEqual([{ next_at_ms: 20 }]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await get('C1')).rows).toEqual([{ next_at_ms: 10 }]);
    expect((await get('C2')).rows).toEqual([]);
  });

  it('refuse a parameter the statement does not take as a value', async () => {
    const ctx = repoContext(sqliteStoreDb(t.db), sqliteDialect, systemClock);
    const unused = ctx.prepare((db, _channelId: string) => db.selectFrom('channel_pace').selectAll());
    await expect(unused('C1')).rejects.toThrow('uses its parameter 1 other than as a value');
  });
});
