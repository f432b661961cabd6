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

/** One observation to write: its brand and source, and what the poll saw then. */
export interface PollObservationRow {
  brandId: string;
  source: PollSource;
  data: unknown;
  observedAtMs: number;
}

export interface PollObservationsRepo {
  get<T>(brandId: string, source: PollSource): Promise<PollObservation<T> | null>;
  /**
   * Only the named top-level fields of a brand's observation, each as stored (a field the
   * observation lacks is absent): the database picks them out, so the parts a reader does
   * not need (the digest's section the citations poll keeps; an older release kept the
   * whole feed there) are neither sent nor parsed.
   */
  getFields<T extends object, K extends keyof T & string>(
    brandId: string,
    source: PollSource,
    fields: readonly K[],
  ): Promise<PollObservation<Partial<Pick<T, K>>> | null>;
  /** getFields for every brand's observation of `source`, by brand id, in one statement. */
  allFieldsOf<T extends object, K extends keyof T & string>(
    source: PollSource,
    fields: readonly K[],
  ): Promise<Map<string, PollObservation<Partial<Pick<T, K>>>>>;
  /** Every brand's observation of `source`, by brand id: one statement for a job's planning. */
  allOf<T>(source: PollSource): Promise<Map<string, PollObservation<T>>>;
  put<T>(brandId: string, source: PollSource, data: T, observedAtMs: number): Promise<void>;
  /** Several `put`s in one statement (a batch of brands committed together); the last of a key wins. */
  putMany(rows: readonly PollObservationRow[]): Promise<void>;
  /** One numeric field (`$.name`) of every brand's observation of `source`, where set. */
  numbers(source: PollSource, field: string): Promise<number[]>;
  /**
   * Deletes at most `limit` observations made before `cutoffMs` (a brand still polled is
   * observed again every run, so only brands no longer polled are that old); returns how many.
   */
  purgeObservedBefore(cutoffMs: number, limit: number): Promise<number>;
}
