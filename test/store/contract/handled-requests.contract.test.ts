/** HandledRequestsRepo on both backends: one redelivery check, shared by every process. */
import { expect, it } from 'vitest';
import type { HandledRequestsRepo } from '../../../src/store/handled-requests-repo.js';
import { describeBackends, type TestBackend } from './store-backends.js';

const HOUR = 60 * 60 * 1000;

const repoOn = (b: TestBackend): HandledRequestsRepo => b.store().handledRequests;

describeBackends('handled requests', (backend) => {
  it('says whether a request was already accepted within the window', async () => {
    const repo = repoOn(backend());
    expect(await repo.remember('command:1', 1000, HOUR)).toBe(false);
    expect(await repo.remember('command:1', 2000, HOUR)).toBe(true);
    expect(await repo.remember('command:2', 2000, HOUR)).toBe(false);
    // Past the window it counts as new again (and is remembered from then on).
    expect(await repo.remember('command:1', 1000 + HOUR + 1, HOUR)).toBe(false);
    expect(await repo.remember('command:1', 1000 + HOUR + 2, HOUR)).toBe(true);
  });

  it('is shared by every connection to the database, so it outlives a restart', async () => {
    await repoOn(backend()).remember('event:Ev1', 5000, HOUR);
    expect(await repoOn(backend().other()).remember('event:Ev1', 6000, HOUR)).toBe(true);
  });

  it('lets exactly one of several connections accept the same request', async () => {
    const repos = [backend(), backend().other(), backend().other()].map(repoOn);
    const seen = await Promise.all(repos.map((r) => r.remember('event:Ev2', 7000, HOUR)));
    expect(seen.filter((s) => !s)).toHaveLength(1);
  });

  it('purges what is older than the cutoff', async () => {
    const repo = repoOn(backend());
    await repo.remember('a', 1000, HOUR);
    await repo.remember('b', 5000, HOUR);
    expect(await repo.purgeBefore(2000)).toBe(1);
    expect(await repo.remember('a', 6000, HOUR)).toBe(false);
    expect(await repo.remember('b', 6000, HOUR)).toBe(true);
  });

  it('inside a transaction that rolls back, remembers nothing', async () => {
    const b = backend();
    const repo = repoOn(b);
    await expect(
      b.transaction(async () => {
        await repo.remember('command:9', 1000, HOUR);
        throw new Error('the handler failed');
      }),
    ).rejects.toThrow('the handler failed');
    expect(await repo.remember('command:9', 2000, HOUR)).toBe(false);
  });
});
