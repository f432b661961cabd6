/**
 * Send slots per Slack channel, shared by every process that delivers the outbox (table
 * channel_pace): Slack allows about one message per second per channel (DESIGN.md "Slack
 * facts"), and two relays pacing in their own memory would each post once a second.
 *
 * A channel's row holds the earliest time the next post may start. It only ever moves
 * later: `reserve` takes the slot when it is free and pushes it `paceMs` ahead, `called`
 * pushes it to `paceMs` after a call ended, `blockUntil` to a 429's Retry-After. A process
 * that dies between `reserve` and its post leaves the slot held for `paceMs`, no longer.
 */
import { asyncRepo } from './async-repo.js';
import type { Db } from './open-database.js';

export type Reservation = { ok: true } | { ok: false; readyAt: number };

export interface ChannelPaceRepo {
  /**
   * Takes the channel's send slot at `nowMs` when it is free (then nothing else may start
   * a post there before `nowMs + paceMs`), else says when it frees. Atomic: of several
   * processes reserving at once, exactly one gets the slot.
   */
  reserve(channelId: string, nowMs: number, paceMs: number): Promise<Reservation>;
  /** A call to the channel ended at `atMs`: the next may start `paceMs` after it. */
  called(channelId: string, atMs: number, paceMs: number): Promise<void>;
  /** Nothing to the channel before `untilMs` (a 429); never makes the slot earlier. */
  blockUntil(channelId: string, untilMs: number): Promise<void>;
  /** When a post to the channel may start (epoch ms); 0 when it never was paced. */
  readyAt(channelId: string): Promise<number>;
}

export function createChannelPaceRepo(db: Db): ChannelPaceRepo {
  // One statement decides under SQLite's write lock: the insert, or the update of a slot
  // that is free by now, returns the row; a slot still taken returns none.
  const take = db
    .prepare<[{ channel: string; now: number; pace: number }]>(
      `INSERT INTO channel_pace (channel_id, next_at_ms) VALUES (@channel, @now + @pace)
       ON CONFLICT (channel_id) DO UPDATE SET next_at_ms = excluded.next_at_ms
         WHERE channel_pace.next_at_ms <= @now
       RETURNING next_at_ms`,
    )
    .pluck();
  const later = db.prepare<[string, number]>(
    `INSERT INTO channel_pace (channel_id, next_at_ms) VALUES (?, ?)
     ON CONFLICT (channel_id) DO UPDATE SET next_at_ms = excluded.next_at_ms
       WHERE channel_pace.next_at_ms < excluded.next_at_ms`,
  );
  const select = db.prepare<[string]>('SELECT next_at_ms FROM channel_pace WHERE channel_id = ?').pluck();
  const readyAt = (channelId: string) => (select.get(channelId) as number | undefined) ?? 0;
  return asyncRepo<ChannelPaceRepo>(db, {
    reserve(channelId, nowMs, paceMs) {
      if (take.get({ channel: channelId, now: nowMs, pace: paceMs }) !== undefined) return { ok: true };
      // Read after the refusal: another process may have moved the slot since; a slot
      // freed in between reads as due now, and the caller simply asks again.
      return { ok: false, readyAt: Math.max(readyAt(channelId), nowMs) };
    },
    called(channelId, atMs, paceMs) {
      later.run(channelId, atMs + paceMs);
    },
    blockUntil(channelId, untilMs) {
      later.run(channelId, untilMs);
    },
    readyAt,
  });
}
