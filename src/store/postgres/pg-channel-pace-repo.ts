/**
 * ChannelPaceRepo on Postgres (channel-pace-repo.ts has the contract). `reserve` is one
 * statement: the insert, or the update of a slot that is free by now, returns the row; a
 * slot still taken returns none. ON CONFLICT locks the row and re-checks the condition on
 * its newest version, so of several replicas reserving at once exactly one gets the slot
 * and the others see it taken.
 */
import type { ChannelPaceRepo } from '../channel-pace-repo.js';
import type { PgPool } from './create-pool.js';
import { pgText } from './pg-text.js';
import { pgExecutor } from './pg-transaction.js';

export function createPgChannelPaceRepo(pool: PgPool): ChannelPaceRepo {
  const later = async (channelId: string, atMs: number) => {
    await pgExecutor(pool).query(
      `INSERT INTO channel_pace (channel_id, next_at_ms) VALUES ($1, $2)
       ON CONFLICT (channel_id) DO UPDATE SET next_at_ms = EXCLUDED.next_at_ms
         WHERE channel_pace.next_at_ms < EXCLUDED.next_at_ms`,
      [pgText(channelId), atMs],
    );
  };
  const readyAt = async (channelId: string) => {
    const { rows } = await pgExecutor(pool).query<{ next_at_ms: number }>(
      'SELECT next_at_ms FROM channel_pace WHERE channel_id = $1',
      [pgText(channelId)],
    );
    return rows[0]?.next_at_ms ?? 0;
  };
  return {
    async reserve(channelId, nowMs, paceMs) {
      const { rowCount } = await pgExecutor(pool).query(
        `INSERT INTO channel_pace (channel_id, next_at_ms) VALUES ($1, $2::bigint + $3::bigint)
         ON CONFLICT (channel_id) DO UPDATE SET next_at_ms = EXCLUDED.next_at_ms
           WHERE channel_pace.next_at_ms <= $2
         RETURNING 1`,
        [pgText(channelId), nowMs, paceMs],
      );
      if (rowCount === 1) return { ok: true };
      // A second round trip only when refused (rare: the pacer asks only when it believes
      // the slot free). A slot freed in between reads as due now; the caller asks again.
      return { ok: false, readyAt: Math.max(await readyAt(channelId), nowMs) };
    },
    called: (channelId, atMs, paceMs) => later(channelId, atMs + paceMs),
    blockUntil: (channelId, untilMs) => later(channelId, untilMs),
    readyAt,
  };
}
