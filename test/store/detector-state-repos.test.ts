import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { INITIAL_AI_PAGES_STATE } from '../../src/alerts/detect-ai-pages.js';
import type { CitationState, UrlCitationState } from '../../src/alerts/detect-citations.js';
import { createChannelDetectorStateRepo } from '../../src/store/channel-detector-state-repo.js';
import { createCitationStateRepo } from '../../src/store/citation-state-repo.js';
import { type TempDb, tempDb } from './temp-db.js';

let t: TempDb;
beforeEach(() => {
  t = tempDb();
});
afterEach(() => t.close());

function entry(i: number, extra: Partial<UrlCitationState> = {}): UrlCitationState {
  return {
    presence: i % 3 === 0 ? 'lost' : 'present',
    presenceAtMs: 1_700_000_000_000 + i,
    sentiment: i % 5 === 0 ? null : (i % 100) + 0.5,
    sentimentAtMs: i % 5 === 0 ? null : 1_700_000_000_000,
    competitors: i % 7 === 0 ? ['Rival', `Other ${i}`] : [],
    version: i % 4,
    lastEvent: i % 2 === 0 ? 'new' : null,
    ...extra,
  };
}

describe('citation state repo', () => {
  it('saves and loads a brand state exactly', async () => {
    const repo = createCitationStateRepo(t.db);
    const state: CitationState = new Map(
      Array.from({ length: 500 }, (_, i) => [`https://s${i}.example/p`, entry(i)]),
    );
    expect(await repo.has('b1')).toBe(false);
    expect(await repo.save('b1', state, 1)).toBe(500);
    expect(await repo.load('b1')).toEqual(state);
    expect(await repo.count('b1')).toBe(500);
    expect(await repo.load('b2')).toEqual(new Map());
    expect(await repo.has('b1')).toBe(true);
  });

  it('writes the next state when a run changed a URL, and nothing when it changed none', async () => {
    const repo = createCitationStateRepo(t.db);
    const state: CitationState = new Map([
      ['u1', entry(1)],
      ['u2', entry(2)],
    ]);
    await repo.save('b1', state, 1);
    const next = new Map(state);
    next.set('u1', entry(1, { presence: 'lost', version: 9 }));
    expect(await repo.save('b1', next, 2, ['u1', 'missing'])).toBe(1);
    expect(await repo.load('b1')).toEqual(next);
    const unchanged = new Map(next);
    unchanged.set('u2', entry(2, { version: 42 }));
    expect(await repo.save('b1', unchanged, 3, [])).toBe(0);
    expect((await repo.load('b1')).get('u2')!.version).toBe(entry(2).version);
  });

  it('replace drops URLs the new state does not have; remove forgets the brand', async () => {
    const repo = createCitationStateRepo(t.db);
    await repo.save(
      'b1',
      new Map([
        ['u1', entry(1)],
        ['u2', entry(2)],
      ]),
      1,
    );
    await repo.save('b2', new Map([['u1', entry(1)]]), 1);
    await repo.replace('b1', new Map([['u3', entry(3)]]), 2);
    expect([...(await repo.load('b1')).keys()]).toEqual(['u3']);
    expect(await repo.remove('b1')).toBe(1);
    expect(await repo.count('b2')).toBe(1);
  });
});

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
