/**
 * Per-URL citation state of each brand, the memory of detect-citations: one packed base
 * row per brand plus one row per URL changed since (repos/citation-state.ts), so a run
 * over 1,000 brands × 500 URLs reads about 1,000 base rows and writes only the URLs it
 * changed.
 */
import type { CitationState } from '../alerts/detect-citations.js';

export interface CitationStateRepo {
  load(brandId: string): Promise<CitationState>;
  /** `load` for several brands in one statement, by brand id (a brand with no state: an empty one). */
  loadMany(brandIds: readonly string[]): Promise<Map<string, CitationState>>;
  /**
   * With `urls` (the entries a run changed): stores the entries of `state`, the brand's
   * complete next state, at those URLs, and returns how many of `urls` it holds; nothing
   * is written when it holds none. Without: stores `state` as the brand's whole state.
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
