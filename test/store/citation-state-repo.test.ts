/**
 * The citation state's packed form (one row per brand): what the detector-state tests
 * leave out. Values that a lossy encoding would change, the row count, and that the one
 * write per brand still commits or rolls back with the caller's transaction.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CitationState, UrlCitationState } from '../../src/alerts/detect-citations.js';
import { createCitationStateRepo } from '../../src/store/citation-state-repo.js';
import { createOutboxRepo } from '../../src/store/outbox-repo.js';
import { transaction } from '../../src/store/transaction.js';
import { type TempDb, tempDb } from './temp-db.js';

let t: TempDb;
beforeEach(() => {
  t = tempDb();
});
afterEach(() => t.close());

function entry(i: number): UrlCitationState {
  return {
    presence: (['lost', 'present', 'unknown'] as const)[i % 3]!,
    presenceAtMs: 1_700_000_000_000 + i * 86_400_000 + (i % 1000),
    // Fractions that only survive a round trip printed to 17 significant digits.
    sentiment: i % 5 === 0 ? null : i % 2 === 0 ? (i % 100) + 0.5 : (i % 100) / 3,
    sentimentAtMs: i % 5 === 0 ? null : 1_700_000_000_000,
    competitors: i % 7 === 0 ? ['Rival', `Other "${i}" \\ ü\n`] : [],
    version: i % 4,
    lastEvent: i % 2 === 0 ? 'new' : null,
  };
}

const stateOf = (n: number, from = 0): CitationState =>
  new Map(
    Array.from({ length: n }, (_, i) => [`https://s${from + i}.example/p?q="${i}"&x=ü`, entry(from + i)]),
  );

const rows = () => t.db.prepare('SELECT brand_id, url_count FROM citation_state ORDER BY brand_id').all();

describe('citation state, one packed row per brand', () => {
  it('round-trips every value exactly, in the order saved, in one row per brand', async () => {
    const repo = createCitationStateRepo(t.db);
    const state = stateOf(500);
    await repo.save('b1', state, 1);
    await repo.replace('b2', stateOf(3, 700), 1);
    const loaded = await repo.load('b1');
    expect(loaded).toEqual(state);
    expect([...loaded.keys()]).toEqual([...state.keys()]);
    expect(rows()).toEqual([
      { brand_id: 'b1', url_count: 500 },
      { brand_id: 'b2', url_count: 3 },
    ]);
  });

  it('leaves the row alone when nothing changed, and keeps no row for a brand with no citations', async () => {
    const repo = createCitationStateRepo(t.db);
    await repo.save('b1', stateOf(2), 1);
    expect(await repo.save('b1', stateOf(5), 2, ['https://elsewhere.example/'])).toBe(0);
    expect(await repo.count('b1')).toBe(2);
    expect(t.db.prepare('SELECT updated_at_ms FROM citation_state').pluck().get()).toBe(1);
    await repo.replace('b1', new Map(), 3);
    expect(await repo.has('b1')).toBe(false);
    expect(rows()).toEqual([]);
  });

  it('is written together with the outbox rows, or not at all', async () => {
    const repo = createCitationStateRepo(t.db);
    const outbox = createOutboxRepo(t.db);
    await repo.save('b1', stateOf(2), 1);
    await expect(
      transaction(t.db, async () => {
        await repo.save('b1', stateOf(5, 10), 2);
        await outbox.enqueue({
          dedupeKey: 'k1',
          channelId: 'C1',
          kind: 'alert',
          payload: { text: 'x' },
          nowMs: 2,
        });
        throw new Error('the process died before the commit');
      }),
    ).rejects.toThrow('process died');
    expect(await repo.load('b1')).toEqual(stateOf(2));
    expect((await outbox.counts()).pending).toBe(0);

    await transaction(t.db, async () => {
      await repo.save('b1', stateOf(5, 10), 2);
      await outbox.enqueue({
        dedupeKey: 'k1',
        channelId: 'C1',
        kind: 'alert',
        payload: { text: 'x' },
        nowMs: 2,
      });
    });
    expect(await repo.load('b1')).toEqual(stateOf(5, 10));
    expect((await outbox.counts()).pending).toBe(1);
  });

  it('stores URLs in equal states once, and a change to one URL leaves the others as they were', async () => {
    const repo = createCitationStateRepo(t.db);
    const same: UrlCitationState = {
      presence: 'present',
      presenceAtMs: 1_700_000_000_000,
      sentiment: 70,
      sentimentAtMs: null,
      competitors: ['Rival'],
      version: 1,
      lastEvent: 'new',
    };
    const state: CitationState = new Map(
      Array.from({ length: 300 }, (_, i) => [`https://s.example/${i}`, { ...same, competitors: ['Rival'] }]),
    );
    await repo.save('b1', state, 1);
    const text = t.db.prepare('SELECT state FROM citation_state').pluck().get() as string;
    // One entry for the 300 equal ones: the row is the URLs and a number per URL.
    expect(text.split('Rival')).toHaveLength(2);

    const loaded = await repo.load('b1');
    expect(loaded).toEqual(state);
    // Loaded entries are read-only: a detector that changed one in place would change all.
    expect(() => {
      (loaded.get('https://s.example/0') as { version: number }).version = 9;
    }).toThrow(TypeError);
    expect(() => loaded.get('https://s.example/0')!.competitors.push('Other')).toThrow(TypeError);

    const next = new Map(loaded);
    next.set('https://s.example/7', { ...same, presence: 'lost', version: 2, lastEvent: 'lost' });
    await repo.save('b1', next, 2, ['https://s.example/7']);
    const again = await repo.load('b1');
    expect(again.get('https://s.example/7')).toEqual({
      ...same,
      presence: 'lost',
      version: 2,
      lastEvent: 'lost',
    });
    expect(again.get('https://s.example/6')).toEqual(same);
    expect(again.get('https://s.example/8')).toEqual(same);
    expect([...again.keys()]).toEqual([...state.keys()]);
  });

  it('reads a row in the earlier one-array-per-field form and rewrites it in the compact one', async () => {
    const repo = createCitationStateRepo(t.db);
    const state = stateOf(20);
    const columns = [
      [...state.keys()],
      ...(
        [
          'presence',
          'presenceAtMs',
          'sentiment',
          'sentimentAtMs',
          'competitors',
          'version',
          'lastEvent',
        ] as const
      ).map((field) => [...state.values()].map((s) => s[field])),
    ];
    t.db
      .prepare('INSERT INTO citation_state (brand_id, url_count, state, updated_at_ms) VALUES (?, ?, ?, ?)')
      .run('b1', 20, JSON.stringify(columns), 1);
    const loaded = await repo.load('b1');
    expect(loaded).toEqual(state);

    const changed = new Map(loaded);
    changed.set('https://new.example/', entry(99));
    await repo.save('b1', changed, 2, ['https://new.example/']);
    expect(JSON.parse(t.db.prepare('SELECT state FROM citation_state').pluck().get() as string)).toHaveLength(
      3,
    );
    expect(await repo.load('b1')).toEqual(changed);
  });
});
