/**
 * The state of the "a model stopped citing you" rule per brand (table model_citation_state).
 * Per brand, not per channel: the counts and the stopped models do not depend on settings.
 * The citations job loads it, decides, and saves it in the transaction that writes the
 * alerts, so a state change and its outbox row are stored together or not at all.
 */
import type { ModelCitationState } from '../alerts/detect-model-citations.js';

export interface ModelCitationStateRepo {
  /** The brand's state; the initial (empty) state when none is stored. */
  load(brandId: string): Promise<ModelCitationState>;
  save(brandId: string, state: ModelCitationState, nowMs: number): Promise<void>;
  /** Forgets the brand (no subscription watches it any more). */
  forget(brandId: string): Promise<void>;
}
