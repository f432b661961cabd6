/** ChannelDefaultsRepo on both backends: the brand `/visibility use` set for a channel. */
import { expect, it } from 'vitest';
import type { ChannelDefaultsRepo } from '../../../src/store/channel-defaults-repo.js';
import { describeBackends, type TestBackend } from './store-backends.js';

const repoOn = (b: TestBackend): ChannelDefaultsRepo => b.store().channelDefaults;

describeBackends('channel defaults', (backend) => {
  it('sets, replaces and clears a channel default, per channel', async () => {
    const repo = repoOn(backend());
    expect(await repo.get('C1')).toBeUndefined();
    await repo.set({ channelId: 'C1', brandId: 'acme', setBy: 'U1', atMs: 1 });
    await repo.set({ channelId: 'C2', brandId: 'globex', setBy: 'U1', atMs: 1 });
    await repo.set({ channelId: 'C1', brandId: 'initech', setBy: 'U2', atMs: 2 });
    expect(await repo.get('C1')).toBe('initech');
    expect(await repo.clear('C1')).toBe(true);
    expect(await repo.clear('C1')).toBe(false);
    expect(await repo.get('C1')).toBeUndefined();
    expect(await repo.get('C2')).toBe('globex');
  });

  it('is shared by every connection to the database (another process, a replica)', async () => {
    await repoOn(backend()).set({ channelId: 'C2', brandId: 'globex', setBy: 'U1', atMs: 1 });
    expect(await repoOn(backend().other()).get('C2')).toBe('globex');
  });

  it('a default set inside a transaction that rolls back leaves the old one', async () => {
    const b = backend();
    const repo = repoOn(b);
    await repo.set({ channelId: 'C1', brandId: 'acme', setBy: 'U1', atMs: 1 });
    await expect(
      b.transaction(async () => {
        await repo.set({ channelId: 'C1', brandId: 'initech', setBy: 'U2', atMs: 2 });
        await repo.set({ channelId: 'C2', brandId: 'globex', setBy: 'U2', atMs: 2 });
        throw new Error('the command failed');
      }),
    ).rejects.toThrow('the command failed');
    expect(await repo.get('C1')).toBe('acme');
    expect(await repo.get('C2')).toBeUndefined();
  });

  it('connections setting one channel at once leave one of their defaults; of two clearing, one clears', async () => {
    const repos = [backend(), backend().other(), backend().other()].map(repoOn);
    await Promise.all(
      repos.map((r, i) => r.set({ channelId: 'C1', brandId: `brand${i}`, setBy: 'U1', atMs: i })),
    );
    expect(['brand0', 'brand1', 'brand2']).toContain(await repos[0]!.get('C1'));
    const cleared = await Promise.all(repos.map((r) => r.clear('C1')));
    expect(cleared.filter(Boolean)).toHaveLength(1);
    expect(await repos[2]!.get('C1')).toBeUndefined();
  });
});
