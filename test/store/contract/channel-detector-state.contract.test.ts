/**
 * ChannelDetectorStateRepo on both backends: the crawler and AI Pages detectors' state per
 * channel and brand (each channel has its own thresholds, so its own levels fired).
 */
import { expect, it } from 'vitest';
import { type AiPagesState, INITIAL_AI_PAGES_STATE } from '../../../src/alerts/detect-ai-pages.js';
import type { CrawlerState } from '../../../src/alerts/detect-crawler.js';
import { type ChannelDetectorStateRepo, levelKey } from '../../../src/store/channel-detector-state-repo.js';
import { describeBackends, type TestBackend } from './store-backends.js';

const repoOn = (b: TestBackend): ChannelDetectorStateRepo => b.store().channelDetectorState;

/** A row as an older version wrote it, with fewer fields. */
async function insertOldRow(b: TestBackend, brandId: string, detector: string, state: unknown) {
  const sql = 'INSERT INTO detector_snapshots (brand_id, detector, state, updated_at_ms) VALUES ';
  if (b.kind === 'sqlite') b.db.prepare(`${sql}(?, ?, ?, 1)`).run(brandId, detector, JSON.stringify(state));
  else await b.pool.query(`${sql}($1, $2, $3::jsonb, 1)`, [brandId, detector, JSON.stringify(state)]);
}

const aiPages = (extra: Partial<AiPagesState> = {}): AiPagesState => ({
  ...INITIAL_AI_PAGES_STATE,
  period: '2025-04-01T00:00:00.000Z',
  firedLevels: [80, 90],
  enabled: true,
  lastPercentage: 91.25,
  ...extra,
});

describeBackends('channel detector state', (backend) => {
  it('stores crawler and AI Pages state per channel and brand', async () => {
    const repo = repoOn(backend());
    expect(await repo.getCrawler('C1', 'b1')).toBeNull();
    expect(await repo.getAiPages('C1', 'b1')).toBeNull();
    await repo.putCrawler('C1', 'b1', { dropping: true, episode: 2, lastChangePct: -45.5 }, 1);
    const ai = aiPages();
    await repo.putAiPages('C1', 'b1', ai, 1);
    expect(await repo.getCrawler('C1', 'b1')).toEqual({ dropping: true, episode: 2, lastChangePct: -45.5 });
    expect(await repo.getAiPages('C1', 'b1')).toEqual(ai);
    // Another channel watching the same brand keeps its own levels, and another brand its own.
    expect(await repo.getAiPages('C2', 'b1')).toBeNull();
    expect(await repo.getCrawler('C1', 'b2')).toBeNull();
    await repo.putAiPages('C2', 'b1', aiPages({ firedLevels: [50] }), 1);
    await repo.putCrawler('C1', 'b1', { dropping: false, episode: 2, lastChangePct: null }, 2);
    expect(await repo.getCrawler('C1', 'b1')).toEqual({ dropping: false, episode: 2, lastChangePct: null });
    expect(await repo.remove('C1', 'b1')).toBe(2);
    expect(await repo.remove('C1', 'b1')).toBe(0);
    expect(await repo.getCrawler('C1', 'b1')).toBeNull();
    expect(await repo.getAiPages('C1', 'b1')).toBeNull();
    expect((await repo.getAiPages('C2', 'b1'))!.firedLevels).toEqual([50]);
  });

  it("writes several channels' levels in one statement, the last of a key winning", async () => {
    const repo = repoOn(backend());
    await repo.putCrawler('C1', 'b1', { dropping: true, episode: 1, lastChangePct: -40 }, 1);
    await repo.putLevels([]);
    await repo.putLevels([
      {
        channelId: 'C1',
        brandId: 'b1',
        detector: 'crawler',
        state: { dropping: false, episode: 1, lastChangePct: 5 },
        nowMs: 2,
      },
      { channelId: 'C1', brandId: 'b1', detector: 'aiPages', state: aiPages(), nowMs: 2 },
      {
        channelId: 'C2',
        brandId: 'b1',
        detector: 'aiPages',
        state: aiPages({ firedLevels: [50] }),
        nowMs: 2,
      },
      {
        channelId: 'C1',
        brandId: 'b2',
        detector: 'crawler',
        state: { dropping: true, episode: 1, lastChangePct: -60 },
        nowMs: 2,
      },
      {
        channelId: 'C1',
        brandId: 'b2',
        detector: 'crawler',
        state: { dropping: true, episode: 2, lastChangePct: -70 },
        nowMs: 3,
      },
    ]);
    expect(await repo.getCrawler('C1', 'b1')).toEqual({ dropping: false, episode: 1, lastChangePct: 5 });
    expect(await repo.getAiPages('C1', 'b1')).toEqual(aiPages());
    expect((await repo.getAiPages('C2', 'b1'))!.firedLevels).toEqual([50]);
    expect(await repo.getCrawler('C1', 'b2')).toEqual({ dropping: true, episode: 2, lastChangePct: -70 });
    expect(await repo.getCrawler('C2', 'b1')).toBeNull();
  });

  it("reads every channel's level states of several brands at once, one detector at a time", async () => {
    const repo = repoOn(backend());
    expect(await repo.crawlerLevelsOf([])).toEqual(new Map());
    await repo.putCrawler('C1', 'b1', { dropping: true, episode: 1, lastChangePct: -40 }, 1);
    await repo.putCrawler('C2', 'b1', { dropping: false, episode: 0, lastChangePct: 0 }, 1);
    await repo.putCrawler('C1', 'b3', { dropping: true, episode: 2, lastChangePct: -50 }, 1);
    await repo.putAiPages('C1', 'b2', aiPages({ firedLevels: [80] }), 1);
    await repo.putWeekly('C1', 'b1', { lastDate: '2026-11-23', schedule: null }, 1);
    expect(await repo.crawlerLevelsOf(['b1', 'b2', 'b1'])).toEqual(
      new Map([
        [levelKey('C1', 'b1'), { dropping: true, episode: 1, lastChangePct: -40 }],
        [levelKey('C2', 'b1'), { dropping: false, episode: 0, lastChangePct: 0 }],
      ]),
    );
    expect(await repo.aiPagesLevelsOf(['b1', 'b2', 'b3'])).toEqual(
      new Map([[levelKey('C1', 'b2'), await repo.getAiPages('C1', 'b2')]]),
    );
  });

  it('fills fields an older version did not store', async () => {
    const b = backend();
    const repo = repoOn(b);
    await insertOldRow(b, 'b1', 'ai_pages@C1', { period: 'p', firedLevels: [80] });
    await insertOldRow(b, 'b1', 'crawler@C1', { dropping: true });
    expect(await repo.getAiPages('C1', 'b1')).toEqual({
      ...INITIAL_AI_PAGES_STATE,
      period: 'p',
      firedLevels: [80],
    });
    expect(await repo.getCrawler('C1', 'b1')).toEqual({ dropping: true, episode: 0, lastChangePct: null });
  });

  it('stores a period from the API with a NUL instead of failing the write', async () => {
    const b = backend();
    const repo = repoOn(b);
    await repo.putAiPages('C1', 'b1', aiPages({ period: '2025-04\u0000' }), 1);
    expect((await repo.getAiPages('C1', 'b1'))!.period).toBe(
      b.kind === 'sqlite' ? '2025-04\u0000' : '2025-04\ufffd',
    );
  });

  it('inside a transaction that rolls back, writes and removes nothing', async () => {
    const b = backend();
    const repo = repoOn(b);
    const before: CrawlerState = { dropping: false, episode: 1, lastChangePct: 2 };
    await repo.putCrawler('C1', 'b1', before, 1);
    await expect(
      b.transaction(async () => {
        await repo.putCrawler('C1', 'b1', { dropping: true, episode: 2, lastChangePct: -50 }, 2);
        await repo.putAiPages('C1', 'b1', aiPages(), 2);
        expect(await repo.getCrawler('C1', 'b1')).toMatchObject({ dropping: true });
        await repo.remove('C2', 'b1');
        throw new Error('the run failed');
      }),
    ).rejects.toThrow('the run failed');
    expect(await repo.getCrawler('C1', 'b1')).toEqual(before);
    expect(await repo.getAiPages('C1', 'b1')).toBeNull();
  });

  it('is shared by every connection, and replicas writing one row at once leave one whole state', async () => {
    const repos = [backend(), backend().other(), backend().other()].map(repoOn);
    for (let round = 0; round < 5; round++) {
      const states = repos.map((_, i) => aiPages({ firedLevels: [10 * i + round], disabledEpisodes: i }));
      // The first round races on a row that does not exist yet: three inserts of one key.
      await Promise.all(repos.map((r, i) => r.putAiPages('C1', 'b1', states[i]!, round)));
      const seen = await repos[2]!.getAiPages('C1', 'b1');
      expect(states).toContainEqual(seen);
      expect(seen!.firedLevels).toEqual([10 * seen!.disabledEpisodes + round]);
    }
  });
});

describeBackends('weekly summary state', (backend) => {
  it('keeps the last week written per channel and brand, read from another connection, and forgets it on remove', async () => {
    const repo = repoOn(backend());
    expect(await repo.getWeekly('C1', 'b1')).toBeNull();
    await repo.putWeekly('C1', 'b1', { lastDate: '2026-11-23', schedule: 'monday@09:00@UTC' }, 1);
    expect(await repoOn(backend().other()).getWeekly('C1', 'b1')).toEqual({
      lastDate: '2026-11-23',
      schedule: 'monday@09:00@UTC',
    });
    expect(await repo.getWeekly('C2', 'b1')).toBeNull();
    await repo.putWeekly('C1', 'b1', { lastDate: '2026-11-30', schedule: 'monday@09:00@UTC' }, 2);
    expect((await repo.getWeekly('C1', 'b1'))!.lastDate).toBe('2026-11-30');
    expect(await repo.remove('C1', 'b1')).toBe(1);
    expect(await repo.getWeekly('C1', 'b1')).toBeNull();
  });
});
