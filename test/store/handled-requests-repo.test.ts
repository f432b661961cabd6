import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHandledRequestsRepo } from '../../src/store/handled-requests-repo.js';
import { type TempDb, tempDb } from './temp-db.js';

let t: TempDb;
beforeEach(() => {
  t = tempDb();
});
afterEach(() => t.close());

const HOUR = 60 * 60 * 1000;

describe('handled requests', () => {
  it('says whether a request was already accepted within the window', async () => {
    const repo = createHandledRequestsRepo(t.db);
    expect(await repo.remember('command:1', 1000, HOUR)).toBe(false);
    expect(await repo.remember('command:1', 2000, HOUR)).toBe(true);
    expect(await repo.remember('command:2', 2000, HOUR)).toBe(false);
    // Past the window it counts as new again (and is remembered from then on).
    expect(await repo.remember('command:1', 1000 + HOUR + 1, HOUR)).toBe(false);
    expect(await repo.remember('command:1', 1000 + HOUR + 2, HOUR)).toBe(true);
  });

  it('is shared by every connection to the database, so it outlives a restart', async () => {
    await createHandledRequestsRepo(t.db).remember('event:Ev1', 5000, HOUR);
    const other = createHandledRequestsRepo(t.open());
    expect(await other.remember('event:Ev1', 6000, HOUR)).toBe(true);
  });

  it('purges what is older than the cutoff', async () => {
    const repo = createHandledRequestsRepo(t.db);
    await repo.remember('a', 1000, HOUR);
    await repo.remember('b', 5000, HOUR);
    expect(await repo.purgeBefore(2000)).toBe(1);
    expect(await repo.remember('a', 6000, HOUR)).toBe(false);
    expect(await repo.remember('b', 6000, HOUR)).toBe(true);
  });
});
