/**
 * Per-URL citation state of each brand, the memory of detect-citations: one packed base
 * row per brand plus one row per URL changed since (repos/citation-state.ts), so a run
 * over 1,000 brands × 500 URLs reads about 1,000 base rows and writes only the URLs it
 * changed.
 */
import type { CitationState } from '../alerts/detect-citations.js';

/** One brand's `save` with the URLs a run changed, to write with other brands' (saveMany). */
export interface CitationStateSave {
  brandId: string;
  /** The brand's complete next state. */
  state: CitationState;
  nowMs: number;
  urls: Iterable<string>;
}

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
  /**
   * Several `save`s with `urls` (a batch of brands, each loaded just before by load or
   * loadMany): what each would store, their change rows in one statement; the last save
   * of a brand wins.
   */
  saveMany(saves: readonly CitationStateSave[]): Promise<void>;
  /** Replaces the brand's whole state (subscription baseline). */
  replace(brandId: string, state: CitationState, nowMs: number): Promise<void>;
  has(brandId: string): Promise<boolean>;
  /** Forgets the brand's state; returns how many URL entries it held. */
  remove(brandId: string): Promise<number>;
  /** How many URL entries the brand's state holds. */
  count(brandId: string): Promise<number>;
}
