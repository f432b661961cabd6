import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createChannelDefaultsRepo } from '../../src/store/channel-defaults-repo.js';
import { type TempDb, tempDb } from './temp-db.js';

let t: TempDb;
beforeEach(() => {
  t = tempDb();
});
afterEach(() => t.close());

describe('channel defaults repo', () => {
  it('sets, replaces and clears a channel default, per channel', async () => {
    const repo = createChannelDefaultsRepo(t.db);
    expect(await repo.get('C1')).toBeUndefined();
    await repo.set({ channelId: 'C1', brandId: 'acme', setBy: 'U1', atMs: 1 });
    await repo.set({ channelId: 'C2', brandId: 'globex', setBy: 'U1', atMs: 1 });
    await repo.set({ channelId: 'C1', brandId: 'initech', setBy: 'U2', atMs: 2 });
    expect(await repo.get('C1')).toBe('initech');
    expect(await repo.clear('C1')).toBe(true);
    expect(await repo.clear('C1')).toBe(false);
    expect(await repo.get('C1')).toBeUndefined();
    // Another connection to the file (another process) reads the same rows.
    expect(await createChannelDefaultsRepo(t.open()).get('C2')).toBe('globex');
  });
});
