/** PollObservationsRepo on both backends: the last thing each poll saw per brand and source. */
import { expect, it } from 'vitest';
import type { PollObservationsRepo } from '../../../src/store/poll-observations-repo.js';
import { describeBackends, type TestBackend } from './store-backends.js';

const repoOn = (b: TestBackend): PollObservationsRepo => b.store().pollObservations;

describeBackends('poll observations', (backend) => {
  it('keeps one observation per brand and source, replaced by the next poll', async () => {
    const repo = repoOn(backend());
    expect(await repo.get('b1', 'citations')).toBeNull();
    const feed = { snapshotDate: '2026-11-24', runTimeOfDayMs: 3_600_000, urls: ['https://a.example/'] };
    await repo.put('b1', 'citations', feed, 1000);
    await repo.put('b1', 'crawler', { periods: [{ from: 'x', visits: 3 }] }, 1100);
    await repo.put('b2', 'citations', { snapshotDate: '2026-11-23' }, 1200);
    expect(await repo.get('b1', 'citations')).toEqual({ observedAtMs: 1000, data: feed });
    expect(await repo.get('b1', 'crawler')).toEqual({
      observedAtMs: 1100,
      data: { periods: [{ from: 'x', visits: 3 }] },
    });
    await repo.put('b1', 'citations', { snapshotDate: '2026-11-25' }, 2000);
    expect(await repo.get('b1', 'citations')).toEqual({
      observedAtMs: 2000,
      data: { snapshotDate: '2026-11-25' },
    });
    expect(await repo.get('b1', 'ai-pages')).toBeNull();
  });

  it("reads only the named top-level fields of an observation, one brand's or every brand's, as stored", async () => {
    const repo = repoOn(backend());
    type Seen = { date: string | null; at: number; none: string; feed: unknown };
    expect(await repo.getFields<Seen, 'date'>('b1', 'citations', ['date'])).toBeNull();
    await repo.put('b1', 'citations', { date: '2026-11-24', at: 5, feed: { events: [1, 2] } }, 1000);
    await repo.put('b2', 'citations', { date: null, at: 0.5 }, 1100);
    await repo.put('b1', 'crawler', { date: 'other source' }, 1200);
    expect(
      await repo.getFields<Seen, 'date' | 'at' | 'none'>('b1', 'citations', ['date', 'at', 'none']),
    ).toEqual({
      observedAtMs: 1000,
      data: { date: '2026-11-24', at: 5 },
    });
    expect(await repo.getFields<Seen, 'date' | 'at'>('b2', 'citations', ['date', 'at'])).toEqual({
      observedAtMs: 1100,
      data: { date: null, at: 0.5 },
    });
    expect(await repo.getFields<Seen, 'feed'>('b1', 'citations', ['feed'])).toEqual({
      observedAtMs: 1000,
      data: { feed: { events: [1, 2] } },
    });
    expect(await repo.getFields<Seen, 'date'>('b1', 'crawler', ['date'])).toEqual({
      observedAtMs: 1200,
      data: { date: 'other source' },
    });
    expect(await repo.allFieldsOf<Seen, 'date' | 'at'>('citations', ['date', 'at'])).toEqual(
      new Map([
        ['b1', { observedAtMs: 1000, data: { date: '2026-11-24', at: 5 } }],
        ['b2', { observedAtMs: 1100, data: { date: null, at: 0.5 } }],
      ]),
    );
    expect(await repo.allFieldsOf<Seen, 'none'>('ai-pages', ['none'])).toEqual(new Map());
  });

  it("reads every brand's observation of one source at once", async () => {
    const repo = repoOn(backend());
    expect(await repo.allOf('ai-pages')).toEqual(new Map());
    await repo.put('b1', 'ai-pages', { samples: [1] }, 1000);
    await repo.put('b2', 'ai-pages', { samples: [] }, 1100);
    await repo.put('b1', 'crawler', { periods: [] }, 1200);
    await repo.put('b2', 'ai-pages', { samples: [2] }, 1300);
    expect(await repo.allOf('ai-pages')).toEqual(
      new Map([
        ['b1', { observedAtMs: 1000, data: { samples: [1] } }],
        ['b2', { observedAtMs: 1300, data: { samples: [2] } }],
      ]),
    );
  });

  it('writes several observations in one statement, the last of a key winning', async () => {
    const repo = repoOn(backend());
    await repo.put('b1', 'crawler', { old: true }, 1);
    await repo.putMany([]);
    await repo.putMany([
      { brandId: 'b1', source: 'crawler', data: { run: 1 }, observedAtMs: 10 },
      { brandId: 'b2', source: 'crawler', data: { run: 1 }, observedAtMs: 10 },
      { brandId: 'b1', source: 'citations', data: 'text\u0000with NUL', observedAtMs: 10 },
      { brandId: 'b2', source: 'crawler', data: { run: 2 }, observedAtMs: 11 },
    ]);
    expect(await repo.get('b1', 'crawler')).toEqual({ observedAtMs: 10, data: { run: 1 } });
    expect(await repo.get('b2', 'crawler')).toEqual({ observedAtMs: 11, data: { run: 2 } });
    expect((await repo.get('b1', 'citations'))?.data).toMatch(/^text.with NUL$/);
  });

  it('keeps data other than objects as it was', async () => {
    const repo = repoOn(backend());
    await repo.put('b1', 'ai-pages', [1, 'two', null, { three: false }], 1);
    expect((await repo.get('b1', 'ai-pages'))!.data).toEqual([1, 'two', null, { three: false }]);
    await repo.put('b2', 'ai-pages', 'just text', 1);
    expect((await repo.get('b2', 'ai-pages'))!.data).toBe('just text');
  });

  it("reads one numeric field of every brand's observation of a source, where it is a number", async () => {
    const repo = repoOn(backend());
    await repo.put('b1', 'citations', { runTimeOfDayMs: 3_600_000 }, 1);
    await repo.put('b2', 'citations', { runTimeOfDayMs: 1.5 }, 1);
    await repo.put('b3', 'citations', { runTimeOfDayMs: '7200000' }, 1);
    await repo.put('b4', 'citations', { runTimeOfDayMs: null }, 1);
    await repo.put('b5', 'citations', {}, 1);
    await repo.put('b6', 'crawler', { runTimeOfDayMs: 99 }, 1);
    await repo.put('b7', 'citations', { run: { at: 5 } }, 1);
    expect((await repo.numbers('citations', 'runTimeOfDayMs')).sort((a, b) => a - b)).toEqual([
      1.5, 3_600_000,
    ]);
    expect(await repo.numbers('crawler', 'runTimeOfDayMs')).toEqual([99]);
    expect(await repo.numbers('citations', 'run.at')).toEqual([5]);
    expect(await repo.numbers('ai-pages', 'runTimeOfDayMs')).toEqual([]);
  });

  it('keeps API text with a NUL instead of failing the poll', async () => {
    const b = backend();
    const repo = repoOn(b);
    await repo.put('b1', 'citations', { title: 'x\u0000y' }, 1);
    const nul = b.kind === 'sqlite' ? '\u0000' : '\ufffd';
    expect((await repo.get<{ title: string }>('b1', 'citations'))!.data.title).toBe(`x${nul}y`);
  });

  it('an observation written inside a transaction that rolls back leaves the previous one', async () => {
    const b = backend();
    const repo = repoOn(b);
    await repo.put('b1', 'crawler', { n: 1 }, 1);
    await expect(
      b.transaction(async () => {
        await repo.put('b1', 'crawler', { n: 2 }, 2);
        await repo.put('b2', 'crawler', { n: 2 }, 2);
        throw new Error('the poll failed');
      }),
    ).rejects.toThrow('the poll failed');
    expect(await repo.get('b1', 'crawler')).toEqual({ observedAtMs: 1, data: { n: 1 } });
    expect(await repo.get('b2', 'crawler')).toBeNull();
  });

  it('connections polling the same brand at once leave one observation, whole', async () => {
    const repos = [backend(), backend().other(), backend().other()].map(repoOn);
    await Promise.all(repos.map((r, i) => r.put('b1', 'citations', { from: i, runTimeOfDayMs: i }, 10 + i)));
    const seen = (await repos[0]!.get<{ from: number; runTimeOfDayMs: number }>('b1', 'citations'))!;
    // Whichever write came last, its time and its data belong together.
    expect(seen.observedAtMs).toBe(10 + seen.data.from);
    expect(await repos[1]!.numbers('citations', 'runTimeOfDayMs')).toEqual([seen.data.from]);
  });
});
