/**
 * The last thing each poll saw per brand (poll_observations): the citation feed with its
 * snapshot date, the crawler periods, the AI Pages record with recent usage samples. One
 * row per brand and source, replaced by every poll.
 */
import { asyncRepo } from './async-repo.js';
import type { Db } from './open-database.js';

export type PollSource = 'citations' | 'crawler' | 'ai-pages';

export interface PollObservation<T> {
  observedAtMs: number;
  data: T;
}

export interface PollObservationsRepo {
  get<T>(brandId: string, source: PollSource): Promise<PollObservation<T> | null>;
  put<T>(brandId: string, source: PollSource, data: T, observedAtMs: number): Promise<void>;
  /** One numeric field (`$.name`) of every brand's observation of `source`, where set. */
  numbers(source: PollSource, field: string): Promise<number[]>;
}

export function createPollObservationsRepo(db: Db): PollObservationsRepo {
  const select = db.prepare<[string, string], { observed_at_ms: number; data: string }>(
    'SELECT observed_at_ms, data FROM poll_observations WHERE brand_id = ? AND source = ?',
  );
  const upsert = db.prepare<[string, string, number, string]>(
    `INSERT INTO poll_observations (brand_id, source, observed_at_ms, data) VALUES (?, ?, ?, ?)
     ON CONFLICT (brand_id, source) DO UPDATE
       SET observed_at_ms = excluded.observed_at_ms, data = excluded.data`,
  );
  const numbers = db
    .prepare<[string, string, string], number>(
      `SELECT json_extract(data, ?) FROM poll_observations
       WHERE source = ? AND json_type(data, ?) IN ('integer', 'real')`,
    )
    .pluck();
  return asyncRepo<PollObservationsRepo>(db, {
    numbers: (source, field) => numbers.all(`$.${field}`, source, `$.${field}`),
    get<T>(brandId: string, source: PollSource) {
      const row = select.get(brandId, source);
      return row ? { observedAtMs: row.observed_at_ms, data: JSON.parse(row.data) as T } : null;
    },
    put(brandId, source, data, observedAtMs) {
      upsert.run(brandId, source, observedAtMs, JSON.stringify(data));
    },
  });
}
