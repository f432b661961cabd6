/**
 * When the relay may post to a channel: Slack allows about one message per second per
 * channel (docs/slack.md), and after a 429 not before its Retry-After. The slots
 * live in the database (ChannelPaceRepo), so every relay of every replica paces a channel
 * together: a post starts only after its relay reserved the slot there.
 *
 * Within one relay the pace runs from the end of the previous call, so the gap Slack sees
 * is at least `paceMs` however long the call took. Between relays it runs from the start
 * of the other's call at least (its reservation), and from its end once that is recorded.
 *
 * What this process learned of a channel's slot is kept in memory and only ever refuses:
 * the shared slot never moves earlier, so while the remembered time is ahead the database
 * is not asked, and whenever the remembered time has passed the database decides.
 */
import type { ChannelPaceRepo, Reservation } from '../store/channel-pace-repo.js';

export interface ChannelPacer {
  /** Takes the channel's slot at `nowMs` (the post may start), or says when it frees. */
  reserve(channel: string, nowMs: number): Promise<Reservation>;
  /** A call to `channel` finished at `atMs`. Never rejects (see `onError`). */
  called(channel: string, atMs: number): Promise<void>;
  /** Slack asked us to wait (429): nothing to `channel` before `untilMs`. Never rejects. */
  blockUntil(channel: string, untilMs: number): Promise<void>;
}

interface ChannelPacerOptions {
  paceMs: number;
  /**
   * Recording a call or a 429 failed (the database is unreachable). The post itself has
   * happened; this process still paces from memory and the reservation already holds the
   * slot for `paceMs`, so it is reported, not thrown into the delivery's outcome.
   */
  onError?: (err: unknown, channel: string) => void;
}

export function createChannelPacer(repo: ChannelPaceRepo, options: ChannelPacerOptions): ChannelPacer {
  const { paceMs, onError } = options;
  const known = new Map<string, number>();
  const later = (channel: string, at: number) => known.set(channel, Math.max(known.get(channel) ?? 0, at));
  const record = async (channel: string, write: () => Promise<void>) => {
    try {
      await write();
    } catch (err) {
      onError?.(err, channel);
    }
  };
  return {
    async reserve(channel, nowMs) {
      const remembered = known.get(channel) ?? 0;
      if (remembered > nowMs) return { ok: false, readyAt: remembered };
      const turn = await repo.reserve(channel, nowMs, paceMs);
      later(channel, turn.ok ? nowMs + paceMs : turn.readyAt);
      return turn;
    },
    called(channel, atMs) {
      later(channel, atMs + paceMs);
      return record(channel, () => repo.called(channel, atMs, paceMs));
    },
    blockUntil(channel, untilMs) {
      later(channel, untilMs);
      return record(channel, () => repo.blockUntil(channel, untilMs));
    },
  };
}
