import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { INITIAL_AI_PAGES_STATE } from '../../src/alerts/detect-ai-pages.js';
import { createSnapshotsRepo } from '../../src/store/snapshots-repo.js';
import { createSnoozesRepo } from '../../src/store/snoozes-repo.js';
import { type TempDb, tempDb } from './temp-db.js';

let t: TempDb;
beforeEach(() => {
  t = tempDb();
});
afterEach(() => t.close());

describe('snapshots repo', () => {
  it('stores crawler and AI Pages state per brand', () => {
    const repo = createSnapshotsRepo(t.db);
    expect(repo.getCrawler('b1')).toBeNull();
    repo.putCrawler('b1', { dropping: true, episode: 2, lastChangePct: -45 }, 1);
    const ai = {
      ...INITIAL_AI_PAGES_STATE,
      period: '2025-04-01T00:00:00.000Z',
      firedLevels: [80, 90],
      enabled: true,
    };
    repo.putAiPages('b1', ai, 1);
    expect(repo.getCrawler('b1')).toEqual({ dropping: true, episode: 2, lastChangePct: -45 });
    expect(repo.getAiPages('b1')).toEqual(ai);
    repo.putCrawler('b1', { dropping: false, episode: 2, lastChangePct: 3 }, 2);
    expect(repo.getCrawler('b1')!.dropping).toBe(false);
    expect(repo.remove('b1')).toBe(2);
  });

  it('fills fields an older version did not store', () => {
    const repo = createSnapshotsRepo(t.db);
    t.db
      .prepare("INSERT INTO detector_snapshots VALUES ('b1', 'ai_pages', ?, 1)")
      .run(JSON.stringify({ period: 'p', firedLevels: [80] }));
    expect(repo.getAiPages('b1')).toEqual({ ...INITIAL_AI_PAGES_STATE, period: 'p', firedLevels: [80] });
  });
});

describe('snoozes repo', () => {
  it('snoozes a kind per (channel, brand) until a time, extends, clears and purges', () => {
    const repo = createSnoozesRepo(t.db);
    const base = { channelId: 'C1', brandId: 'b1', createdBy: 'U1', createdAtMs: 0 };
    repo.snooze({ ...base, kind: 'citation_lost', untilMs: 100 });
    repo.snooze({ ...base, kind: 'crawler_drop', untilMs: 50 });
    repo.snooze({ ...base, channelId: 'C2', kind: 'citation_lost', untilMs: 100 });
    expect(repo.active('C1', 'b1', 60)).toEqual(new Map([['citation_lost', 100]]));
    repo.snooze({ ...base, kind: 'citation_lost', untilMs: 500 });
    expect(repo.active('C1', 'b1', 60).get('citation_lost')).toBe(500);
    expect(repo.listActive(60)).toHaveLength(2);
    expect(repo.purgeExpired(60)).toBe(1);
    expect(repo.clear('C1', 'b1', 'citation_lost')).toBe(1);
    expect(repo.clear('C2', 'b1')).toBe(1);
    expect(repo.listActive(0)).toEqual([]);
  });
});
