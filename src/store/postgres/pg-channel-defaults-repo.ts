/**
 * ChannelDefaultsRepo on Postgres (channel-defaults-repo.ts has the contract): one row per
 * channel, replaced by one INSERT … ON CONFLICT, so two replicas setting a default at once
 * leave one of the two, never an error.
 */
import type { ChannelDefault, ChannelDefaultsRepo } from '../channel-defaults-repo.js';
import type { PgPool } from './create-pool.js';
import { pgText } from './pg-text.js';
import { pgExecutor } from './pg-transaction.js';

export function createPgChannelDefaultsRepo(pool: PgPool): ChannelDefaultsRepo {
  const db = () => pgExecutor(pool);
  return {
    async get(channelId) {
      const { rows } = await db().query<{ brand_id: string }>(
        'SELECT brand_id FROM channel_defaults WHERE channel_id = $1',
        [pgText(channelId)],
      );
      return rows[0]?.brand_id;
    },
    async set(row: ChannelDefault) {
      await db().query(
        `INSERT INTO channel_defaults (channel_id, brand_id, set_by, set_at_ms) VALUES ($1, $2, $3, $4)
         ON CONFLICT (channel_id) DO UPDATE SET
           brand_id = EXCLUDED.brand_id, set_by = EXCLUDED.set_by, set_at_ms = EXCLUDED.set_at_ms`,
        [pgText(row.channelId), pgText(row.brandId), pgText(row.setBy), row.atMs],
      );
    },
    async clear(channelId) {
      const { rowCount } = await db().query('DELETE FROM channel_defaults WHERE channel_id = $1', [
        pgText(channelId),
      ]);
      return (rowCount ?? 0) > 0;
    },
  };
}
