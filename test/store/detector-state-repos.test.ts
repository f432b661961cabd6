import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { INITIAL_AI_PAGES_STATE } from '../../src/alerts/detect-ai-pages.js';
import { createChannelDetectorStateRepo } from '../../src/store/channel-detector-state-repo.js';
import { type TempDb, tempDb } from './temp-db.js';

let t: TempDb;
beforeEach(() => {
  t = tempDb();
});
afterEach(() => t.close());

describe('channel detector state repo', () => {
  it('stores crawler and AI Pages state per channel and brand', async () => {
    const repo = createChannelDetectorStateRepo(t.db);
    expect(await repo.getCrawler('C1', 'b1')).toBeNull();
    await repo.putCrawler('C1', 'b1', { dropping: true, episode: 2, lastChangePct: -45 }, 1);
    const ai = {
      ...INITIAL_AI_PAGES_STATE,
      period: '2025-04-01T00:00:00.000Z',
      firedLevels: [80, 90],
      enabled: true,
    };
    await repo.putAiPages('C1', 'b1', ai, 1);
    expect(await repo.getCrawler('C1', 'b1')).toEqual({ dropping: true, episode: 2, lastChangePct: -45 });
    expect(await repo.getAiPages('C1', 'b1')).toEqual(ai);
    // Another channel watching the same brand keeps its own levels.
    expect(await repo.getAiPages('C2', 'b1')).toBeNull();
    await repo.putCrawler('C1', 'b1', { dropping: false, episode: 2, lastChangePct: 3 }, 2);
    expect((await repo.getCrawler('C1', 'b1'))!.dropping).toBe(false);
    expect(await repo.remove('C1', 'b1')).toBe(2);
    expect(await repo.getCrawler('C1', 'b1')).toBeNull();
  });

  it('fills fields an older version did not store', async () => {
    const repo = createChannelDetectorStateRepo(t.db);
    t.db
      .prepare("INSERT INTO detector_snapshots VALUES ('b1', 'ai_pages@C1', ?, 1)")
      .run(JSON.stringify({ period: 'p', firedLevels: [80] }));
    expect(await repo.getAiPages('C1', 'b1')).toEqual({
      ...INITIAL_AI_PAGES_STATE,
      period: 'p',
      firedLevels: [80],
    });
  });
});
