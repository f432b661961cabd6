/**
 * Per-URL citation state of each brand, the memory of detect-citations, stored as ONE row
 * per brand: a run over 1,000 brands × 500 URLs reads 1,000 rows, not 500 k, and writes
 * one row per brand whose state changed. The row's text is citation-state-packing.ts's.
 *
 * A saved state is the brand's whole state: every caller passes the detector's complete
 * next state, and merging a partial one into the stored row would mean reading it again.
 */
import type { CitationState } from '../alerts/detect-citations.js';

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
