/**
 * When the relay may post to a channel next: Slack allows about one message per second per
 * channel (DESIGN.md "Slack facts"), and after a 429 not before its Retry-After. The pace
 * is measured from the end of the previous call, so the gap Slack sees is at least
 * `paceMs` however long the call took. In memory: a restart forgets it, which costs at
 * most one early post.
 */
export interface ChannelPacer {
  /** Epoch ms from which a post to `channel` is allowed. */
  readyAt(channel: string): number;
  /** A call to `channel` finished at `atMs`. */
  called(channel: string, atMs: number): void;
  /** Slack asked us to wait (429): nothing to `channel` before `untilMs`. */
  blockUntil(channel: string, untilMs: number): void;
}

export function createChannelPacer(paceMs: number): ChannelPacer {
  const next = new Map<string, number>();
  const later = (channel: string, at: number) => next.set(channel, Math.max(next.get(channel) ?? 0, at));
  return {
    readyAt: (channel) => next.get(channel) ?? 0,
    called: (channel, atMs) => later(channel, atMs + paceMs),
    blockUntil: (channel, untilMs) => later(channel, untilMs),
  };
}
