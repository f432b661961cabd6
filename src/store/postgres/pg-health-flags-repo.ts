/**
 * HealthFlagsRepo on Postgres (health-flags-repo.ts has the contract and the episode
 * rules). raise and clear read the flag and decide, as the SQLite repository does inside
 * an immediate transaction; here the read is SELECT … FOR UPDATE in a transaction, so a
 * replica raising or clearing the same flag at the same moment waits and then decides on
 * the row as the first one left it: one new episode, reported once.
 */
import {
  type HealthFlag,
  type HealthFlagRow,
  type HealthFlagsRepo,
  type HealthReport,
  healthFlagFromRow,
} from '../health-flags-repo.js';
import type { PgPool } from './create-pool.js';
import { pgText } from './pg-text.js';
import { pgExecutor, pgTransaction } from './pg-transaction.js';

type Row = HealthFlagRow;
const fromRow = healthFlagFromRow;

export function createPgHealthFlagsRepo(pool: PgPool): HealthFlagsRepo {
  const db = () => pgExecutor(pool);

  const lockedFlag = async (key: string): Promise<HealthFlag | null> => {
    const { rows } = await db().query<Row>('SELECT * FROM health_flags WHERE key = $1 FOR UPDATE', [key]);
    return rows[0] ? fromRow(rows[0]) : null;
  };

  return {
    raise(rawKey, rawDetail, nowMs) {
      const key = pgText(rawKey);
      const detail = pgText(rawDetail);
      return pgTransaction(pool, async () => {
        for (;;) {
          const f = await lockedFlag(key);
          if (!f) {
            const { rowCount } = await db().query(
              `INSERT INTO health_flags (key, detail, raised_at_ms) VALUES ($1, $2, $3)
               ON CONFLICT (key) DO NOTHING`,
              [key, detail, nowMs],
            );
            if (rowCount === 1) return true;
            // Another replica inserted it after our read: decide again on its row.
            continue;
          }
          if (f.clearedAtMs === null) {
            await db().query('UPDATE health_flags SET detail = $1 WHERE key = $2', [detail, key]);
            return false;
          }
          // Cleared but the clearing was never reported: as far as anyone was told, it
          // never stopped. Undo the clear instead of announcing the same problem twice.
          if (f.clearedReportedAtMs === null && f.raisedReportedAtMs !== null) {
            await db().query('UPDATE health_flags SET detail = $1, cleared_at_ms = NULL WHERE key = $2', [
              detail,
              key,
            ]);
            return false;
          }
          await db().query(
            `UPDATE health_flags SET detail = $1, raised_at_ms = $2, raised_reported_at_ms = NULL,
               cleared_at_ms = NULL, cleared_reported_at_ms = NULL WHERE key = $3`,
            [detail, nowMs, key],
          );
          return true;
        }
      });
    },
    clear(rawKey, nowMs) {
      const key = pgText(rawKey);
      return pgTransaction(pool, async () => {
        const f = await lockedFlag(key);
        if (!f || f.clearedAtMs !== null) return false;
        // Raised and gone before anyone was told: nothing to report either way.
        if (f.raisedReportedAtMs === null) await db().query('DELETE FROM health_flags WHERE key = $1', [key]);
        else await db().query('UPDATE health_flags SET cleared_at_ms = $1 WHERE key = $2', [nowMs, key]);
        return true;
      });
    },
    async pendingReports() {
      const { rows } = await db().query<Row>(
        `SELECT * FROM health_flags
         WHERE raised_reported_at_ms IS NULL OR (cleared_at_ms IS NOT NULL AND cleared_reported_at_ms IS NULL)
         ORDER BY raised_at_ms, key`,
      );
      const out: HealthReport[] = [];
      for (const r of rows.map(fromRow)) {
        if (r.raisedReportedAtMs === null)
          out.push({ key: r.key, event: 'raised', detail: r.detail, atMs: r.raisedAtMs });
        else if (r.clearedAtMs !== null)
          out.push({ key: r.key, event: 'cleared', detail: r.detail, atMs: r.clearedAtMs });
      }
      return out;
    },
    async markReported(key, event, nowMs) {
      const column = event === 'raised' ? 'raised_reported_at_ms' : 'cleared_reported_at_ms';
      await db().query(`UPDATE health_flags SET ${column} = $1 WHERE key = $2`, [nowMs, pgText(key)]);
    },
    async active() {
      const { rows } = await db().query<Row>(
        'SELECT * FROM health_flags WHERE cleared_at_ms IS NULL ORDER BY raised_at_ms, key',
      );
      return rows.map(fromRow);
    },
    async get(key) {
      const { rows } = await db().query<Row>('SELECT * FROM health_flags WHERE key = $1', [pgText(key)]);
      return rows[0] ? fromRow(rows[0]) : null;
    },
  };
}
