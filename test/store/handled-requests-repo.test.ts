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
  it('says whether a request was already accepted within the window', () => {
    const repo = createHandledRequestsRepo(t.db);
    expect(repo.remember('command:1', 1000, HOUR)).toBe(false);
    expect(repo.remember('command:1', 2000, HOUR)).toBe(true);
    expect(repo.remember('command:2', 2000, HOUR)).toBe(false);
    // Past the window it counts as new again (and is remembered from then on).
    expect(repo.remember('command:1', 1000 + HOUR + 1, HOUR)).toBe(false);
    expect(repo.remember('command:1', 1000 + HOUR + 2, HOUR)).toBe(true);
  });

  it('is shared by every connection to the database, so it outlives a restart', () => {
    createHandledRequestsRepo(t.db).remember('event:Ev1', 5000, HOUR);
    const other = createHandledRequestsRepo(t.open());
    expect(other.remember('event:Ev1', 6000, HOUR)).toBe(true);
  });

  it('purges what is older than the cutoff', () => {
    const repo = createHandledRequestsRepo(t.db);
    repo.remember('a', 1000, HOUR);
    repo.remember('b', 5000, HOUR);
    expect(repo.purgeBefore(2000)).toBe(1);
    expect(repo.remember('a', 6000, HOUR)).toBe(false);
    expect(repo.remember('b', 6000, HOUR)).toBe(true);
  });
});
