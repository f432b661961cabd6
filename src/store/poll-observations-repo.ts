/**
 * The last thing each poll saw per brand (poll_observations): the citation feed with its
 * snapshot date, the crawler periods, the AI Pages record with recent usage samples. One
 * row per brand and source, replaced by every poll.
 */
export type PollSource = 'citations' | 'crawler' | 'ai-pages';

export interface PollObservation<T> {
  observedAtMs: number;
  data: T;
}

export interface PollObservationsRepo {
  get<T>(brandId: string, source: PollSource): Promise<PollObservation<T> | null>;
  /** Every brand's observation of `source`, by brand id: one statement for a job's planning. */
  allOf<T>(source: PollSource): Promise<Map<string, PollObservation<T>>>;
  put<T>(brandId: string, source: PollSource, data: T, observedAtMs: number): Promise<void>;
  /** One numeric field (`$.name`) of every brand's observation of `source`, where set. */
  numbers(source: PollSource, field: string): Promise<number[]>;
  /**
   * Deletes at most `limit` observations made before `cutoffMs` (a brand still polled is
   * observed again every run, so only brands no longer polled are that old); returns how many.
   */
  purgeObservedBefore(cutoffMs: number, limit: number): Promise<number>;
}
