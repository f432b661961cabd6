/**
 * Per-URL citation state of each brand, the memory of detect-citations, stored as ONE row
 * per brand: a run over 1,000 brands × 500 URLs reads 1,000 rows, not 500 k, and writes
 * one row per brand whose state changed. The row's text is citation-state-packing.ts's.
 *
 * A saved state is the brand's whole state: every caller passes the detector's complete
 * next state, and merging a partial one into the stored row would mean reading it again.
 */
import type { CitationState } from '../alerts/detect-citations.js';
import { asyncRepo } from './async-repo.js';
import { packCitationState, unpackCitationState } from './citation-state-packing.js';
import type { Db } from './open-database.js';

export interface CitationStateRepo {
  load(brandId: string): Promise<CitationState>;
  /**
   * Stores `state` as the brand's whole state when it holds any of `urls`, the entries
   * that changed (default: all of them); returns how many of `urls` it holds. Nothing is
   * written when none changed.
   */
  save(brandId: string, state: CitationState, nowMs: number, urls?: Iterable<string>): Promise<number>;
  /** Replaces the brand's whole state (subscription baseline). */
  replace(brandId: string, state: CitationState, nowMs: number): Promise<void>;
  has(brandId: string): Promise<boolean>;
  /** Forgets the brand's state; returns how many URL entries it held. */
  remove(brandId: string): Promise<number>;
  /** How many URL entries the brand's state holds. */
  count(brandId: string): Promise<number>;
}

export function createCitationStateRepo(db: Db): CitationStateRepo {
  const select = db.prepare('SELECT state FROM citation_state WHERE brand_id = ?').pluck();
  const upsert = db.prepare(
    `INSERT INTO citation_state (brand_id, url_count, state, updated_at_ms) VALUES (?, ?, ?, ?)
     ON CONFLICT (brand_id) DO UPDATE SET
       url_count = excluded.url_count, state = excluded.state, updated_at_ms = excluded.updated_at_ms`,
  );
  const del = db.prepare('DELETE FROM citation_state WHERE brand_id = ? RETURNING url_count').pluck();
  const countOf = db.prepare('SELECT url_count FROM citation_state WHERE brand_id = ?').pluck();

  // Each write is one statement, atomic on its own; inside a caller's transaction (the
  // jobs always call these there, next to the outbox rows) it commits or rolls back with
  // the rest.
  const write = (brandId: string, state: CitationState, nowMs: number) => {
    if (state.size === 0) del.get(brandId);
    else upsert.run(brandId, state.size, packCitationState(state), nowMs);
  };

  return asyncRepo<CitationStateRepo>(db, {
    load(brandId) {
      const text = select.get(brandId) as string | undefined;
      return text === undefined ? new Map() : unpackCitationState(text);
    },
    save(brandId, state, nowMs, urls) {
      let n = state.size;
      if (urls !== undefined) {
        n = 0;
        for (const url of urls) if (state.has(url)) n += 1;
      }
      if (n > 0) write(brandId, state, nowMs);
      return n;
    },
    replace: write,
    has: (brandId) => countOf.get(brandId) !== undefined,
    remove: (brandId) => (del.get(brandId) as number | undefined) ?? 0,
    count: (brandId) => (countOf.get(brandId) as number | undefined) ?? 0,
  });
}
