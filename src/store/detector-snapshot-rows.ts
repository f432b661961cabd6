/**
 * The rows of `detector_snapshots`: one JSON state per brand and detector key. JSON, because
 * the detectors own these shapes and a new field must not need a migration; read over the
 * detector's initial state, so a field added in a later version gets its start value.
 */
import type { Db } from './open-database.js';

export interface DetectorSnapshotRows {
  get<T extends object>(brandId: string, detector: string, initial: T): T | null;
  put(brandId: string, detector: string, state: unknown, nowMs: number): void;
}

export function detectorSnapshotRows(db: Db): DetectorSnapshotRows {
  const select = db
    .prepare('SELECT state FROM detector_snapshots WHERE brand_id = ? AND detector = ?')
    .pluck();
  const upsert = db.prepare(
    `INSERT INTO detector_snapshots (brand_id, detector, state, updated_at_ms) VALUES (?, ?, ?, ?)
     ON CONFLICT (brand_id, detector) DO UPDATE SET state = excluded.state, updated_at_ms = excluded.updated_at_ms`,
  );
  return {
    get<T extends object>(brandId: string, detector: string, initial: T): T | null {
      const raw = select.get(brandId, detector) as string | undefined;
      return raw === undefined ? null : { ...initial, ...(JSON.parse(raw) as Partial<T>) };
    },
    put(brandId, detector, state, nowMs) {
      upsert.run(brandId, detector, JSON.stringify(state), nowMs);
    },
  };
}
