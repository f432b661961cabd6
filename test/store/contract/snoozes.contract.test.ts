/** SnoozesRepo on both backends: an alert kind muted per channel and brand until a time. */
import { expect, it } from 'vitest';
import { levelKey } from '../../../src/store/channel-detector-state-repo.js';
import type { SnoozesRepo } from '../../../src/store/snoozes-repo.js';
import { describeBackends, type TestBackend } from './store-backends.js';

const repoOn = (b: TestBackend): SnoozesRepo => b.store().snoozes;

const base = { channelId: 'C1', brandId: 'b1', createdBy: 'U1', createdAtMs: 0 };

describeBackends('snoozes', (backend) => {
  it('snoozes a kind per (channel, brand) until a time, extends, clears and purges', async () => {
    const repo = repoOn(backend());
    await repo.snooze({ ...base, kind: 'citation_lost', untilMs: 100 });
    await repo.snooze({ ...base, kind: 'crawler_drop', untilMs: 50 });
    await repo.snooze({ ...base, channelId: 'C2', kind: 'citation_lost', untilMs: 100 });
    expect(await repo.active('C1', 'b1', 60)).toEqual(new Map([['citation_lost', 100]]));
    expect(await repo.active('C1', 'b1', 10)).toEqual(
      new Map([
        ['citation_lost', 100],
        ['crawler_drop', 50],
      ]),
    );
    // Ends at untilMs: not active at that moment.
    expect(await repo.active('C1', 'b1', 100)).toEqual(new Map());
    await repo.snooze({ ...base, kind: 'citation_lost', untilMs: 500 });
    expect((await repo.active('C1', 'b1', 60)).get('citation_lost')).toBe(500);
    expect(await repo.listActive(60)).toHaveLength(2);
    expect(await repo.purgeExpired(60)).toBe(1);
    expect(await repo.clear('C1', 'b1', 'citation_lost')).toBe(1);
    expect(await repo.clear('C1', 'b1', 'citation_lost')).toBe(0);
    expect(await repo.clear('C2', 'b1')).toBe(1);
    expect(await repo.listActive(0)).toEqual([]);
  });

  it("reads every channel's running snoozes of several brands at once, by channel and brand", async () => {
    const repo = repoOn(backend());
    await repo.snooze({ ...base, kind: 'citation_lost', untilMs: 100 });
    await repo.snooze({ ...base, kind: 'crawler_drop', untilMs: 50 });
    await repo.snooze({ ...base, channelId: 'C2', kind: 'citation_lost', untilMs: 300 });
    await repo.snooze({ ...base, brandId: 'b2', kind: 'ai_pages_usage', untilMs: 200 });
    await repo.snooze({ ...base, brandId: 'b3', kind: 'citation_lost', untilMs: 900 });
    const read = await repo.activeOfBrands(['b1', 'b2', 'b9'], 60);
    expect(read).toEqual(
      new Map([
        [levelKey('C1', 'b1'), new Map([['citation_lost', 100]])],
        [levelKey('C2', 'b1'), new Map([['citation_lost', 300]])],
        [levelKey('C1', 'b2'), new Map([['ai_pages_usage', 200]])],
      ]),
    );
    // The same answer as asking pair by pair.
    for (const [channelId, brandId] of [
      ['C1', 'b1'],
      ['C2', 'b1'],
      ['C1', 'b2'],
    ] as const)
      expect(read.get(levelKey(channelId, brandId))).toEqual(await repo.active(channelId, brandId, 60));
    expect(await repo.activeOfBrands([], 60)).toEqual(new Map());
  });

  it('snoozing again replaces the end and who snoozed; a shorter end shortens it', async () => {
    const repo = repoOn(backend());
    await repo.snooze({ ...base, kind: 'citation_lost', untilMs: 500 });
    await repo.snooze({ ...base, kind: 'citation_lost', untilMs: 200, createdBy: null, createdAtMs: 7 });
    expect(await repo.listActive(0)).toEqual([
      {
        channelId: 'C1',
        brandId: 'b1',
        kind: 'citation_lost',
        untilMs: 200,
        createdBy: null,
        createdAtMs: 7,
      },
    ]);
  });

  it('lists running snoozes soonest end first', async () => {
    const repo = repoOn(backend());
    await repo.snooze({ ...base, kind: 'a', untilMs: 300 });
    await repo.snooze({ ...base, brandId: 'b2', kind: 'b', untilMs: 100 });
    await repo.snooze({ ...base, channelId: 'C3', kind: 'c', untilMs: 200 });
    expect((await repo.listActive(0)).map((s) => s.untilMs)).toEqual([100, 200, 300]);
  });

  it('clear without a kind lifts every kind of that channel and brand only', async () => {
    const repo = repoOn(backend());
    await repo.snooze({ ...base, kind: 'a', untilMs: 300 });
    await repo.snooze({ ...base, kind: 'b', untilMs: 300 });
    await repo.snooze({ ...base, brandId: 'b2', kind: 'a', untilMs: 300 });
    expect(await repo.clear('C1', 'b1')).toBe(2);
    expect((await repo.listActive(0)).map((s) => s.brandId)).toEqual(['b2']);
  });

  it('a snooze written inside a transaction that rolls back leaves nothing', async () => {
    const b = backend();
    const repo = repoOn(b);
    await repo.snooze({ ...base, kind: 'kept', untilMs: 100 });
    await expect(
      b.transaction(async () => {
        await repo.snooze({ ...base, kind: 'citation_lost', untilMs: 100 });
        await repo.clear('C1', 'b1', 'kept');
        throw new Error('the action failed');
      }),
    ).rejects.toThrow('the action failed');
    expect(await repo.active('C1', 'b1', 0)).toEqual(new Map([['kept', 100]]));
  });

  it('connections snoozing the same kind at once leave one snooze; clearing it, exactly one clears', async () => {
    const repos = [backend(), backend().other(), backend().other()].map(repoOn);
    await Promise.all(
      repos.map((r, i) => r.snooze({ ...base, kind: 'citation_lost', untilMs: 100 + i, createdBy: `U${i}` })),
    );
    const [only, ...rest] = await repos[0]!.listActive(0);
    expect(rest).toEqual([]);
    expect([100, 101, 102]).toContain(only!.untilMs);
    const cleared = await Promise.all(repos.map((r) => r.clear('C1', 'b1', 'citation_lost')));
    expect(cleared.sort()).toEqual([0, 0, 1]);
  });
});
