/**
 * Send slots per Slack channel, shared by every process that delivers the outbox (table
 * channel_pace): Slack allows about one message per second per channel (docs/slack.md),
 * and two relays pacing in their own memory would each post once a second.
 *
 * A channel's row holds the earliest time the next post may start. It only ever moves
 * later: `reserve` takes the slot when it is free and pushes it `paceMs` ahead, `called`
 * pushes it to `paceMs` after a call ended, `blockUntil` to a 429's Retry-After. A process
 * that dies between `reserve` and its post leaves the slot held for `paceMs`, no longer.
 */
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
