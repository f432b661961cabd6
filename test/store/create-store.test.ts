/**
 * The Store's repositories are made on first use (create-store.ts): to its users each is
 * still an ordinary property, the same object every time, that a spread of the store
 * carries.
 */
import { describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/store/create-sqlite-store.js';
import { openDatabase } from '../../src/store/open-database.js';

describe('the store’s repositories', () => {
  it('are made once, on first use, and then behave as plain properties', async () => {
    const db = openDatabase(':memory:');
    const store = createSqliteStore(db);
    expect(store.backend).toBe('sqlite');
    expect(store.db).toBe(db);
    expect(store.jobRuns).toBe(store.jobRuns);
    expect(await store.jobRuns.acquireLease('citations', 'me', 60_000)).toBe(true);
    expect((await store.jobRuns.getLease('citations'))?.owner).toBe('me');

    const copy = { ...store };
    expect(Object.keys(copy)).toEqual(expect.arrayContaining(['subscriptions', 'outbox', 'jobRuns', 'db']));
    expect(copy.jobRuns).toBe(store.jobRuns);
    expect(await copy.subscriptions.listAll()).toEqual([]);
    await store.close();
  });
});
