import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CitationState, UrlCitationState } from '../../src/alerts/detect-citations.js';
import { createCitationStateRepo } from '../../src/store/citation-state-repo.js';
import { type TempDb, tempDb } from './temp-db.js';

let t: TempDb;
beforeEach(() => {
  t = tempDb();
});
afterEach(() => t.close());

function entry(i: number, extra: Partial<UrlCitationState> = {}): UrlCitationState {
  return {
    presence: (['lost', 'present', 'unknown'] as const)[i % 3]!,
    presenceAtMs: 1_700_000_000_000 + i,
    // Fractions that only survive a round trip printed to 17 significant digits.
    sentiment: i % 5 === 0 ? null : i % 2 === 0 ? (i % 100) + 0.5 : (i % 100) / 3,
    sentimentAtMs: i % 5 === 0 ? null : 1_700_000_000_000,
    competitors: i % 7 === 0 ? ['Rival', `Other "${i}" \\ ü`] : [],
    version: i % 4,
    lastEvent: i % 2 === 0 ? 'new' : null,
    ...extra,
  };
}

const stateOf = (n: number, from = 0): CitationState =>
  new Map(Array.from({ length: n }, (_, i) => [`https://s${from + i}.example/p?q=${i}`, entry(from + i)]));

const rowsOf = (brandId: string) =>
  t.db.prepare('SELECT COUNT(*) FROM citation_state WHERE brand_id = ?').pluck().get(brandId);

describe('citation state repo', () => {
  it('saves and loads a brand state exactly, in one row per brand', () => {
    const repo = createCitationStateRepo(t.db);
    const state = stateOf(500);
    expect(repo.has('b1')).toBe(false);
    expect(repo.count('b1')).toBe(0);
    expect(repo.save('b1', state, 1)).toBe(500);
    expect(repo.load('b1')).toEqual(state);
    expect([...repo.load('b1').keys()]).toEqual([...state.keys()]);
    expect(repo.count('b1')).toBe(500);
    expect(rowsOf('b1')).toBe(1);
    expect(repo.load('b2')).toEqual(new Map());
    expect(repo.has('b1')).toBe(true);
  });

  it('a save stores the whole next state when an entry changed, and nothing when none did', () => {
    const repo = createCitationStateRepo(t.db);
    repo.save('b1', stateOf(3), 1);
    const next = new Map(stateOf(3));
    next.set('https://s1.example/p?q=1', entry(1, { presence: 'lost', version: 9 }));
    next.set('https://new.example/', entry(7));
    expect(repo.save('b1', next, 2, ['https://s1.example/p?q=1', 'https://new.example/', 'missing'])).toBe(2);
    expect(repo.load('b1')).toEqual(next);

    // Nothing changed: the stored row is left as it is (its time too).
    const untouched = new Map(next);
    untouched.set('https://s2.example/p?q=2', entry(2, { version: 99 }));
    expect(repo.save('b1', untouched, 3, [])).toBe(0);
    expect(repo.save('b1', untouched, 3, ['missing'])).toBe(0);
    expect(repo.load('b1')).toEqual(next);
    expect(t.db.prepare('SELECT updated_at_ms FROM citation_state').pluck().get()).toBe(2);
  });

  it('replace drops URLs the new state does not have; remove forgets the brand', () => {
    const repo = createCitationStateRepo(t.db);
    repo.save('b1', stateOf(2), 1);
    repo.save('b2', stateOf(1), 1);
    repo.replace('b1', stateOf(1, 3), 2);
    expect([...repo.load('b1').keys()]).toEqual(['https://s3.example/p?q=0']);
    expect(repo.remove('b1')).toBe(1);
    expect(repo.remove('b1')).toBe(0);
    expect(repo.has('b1')).toBe(false);
    expect(repo.count('b2')).toBe(1);
    // A baseline of a brand with no citations at all keeps no row, as before.
    repo.replace('b2', new Map(), 3);
    expect(repo.has('b2')).toBe(false);
  });

  it('a write inside a transaction that fails is rolled back with it', () => {
    const repo = createCitationStateRepo(t.db);
    repo.save('b1', stateOf(2), 1);
    const fail = t.db.transaction(() => {
      repo.save('b1', stateOf(5, 10), 2);
      throw new Error('outbox row could not be written');
    });
    expect(() => fail.immediate()).toThrow('outbox row');
    expect(repo.load('b1')).toEqual(stateOf(2));
  });
});
