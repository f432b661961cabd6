/**
 * Tells this process's outbox relay that something became due now: held alerts released
 * by `unmute`, an undone snooze or quiet hours switched off. The relay then drains at once
 * instead of at the end of its loop's wait, so a reply that says "posted now" is true
 * within moments, and nothing waits for a job run.
 *
 * In-process only, and only a hint: the rows themselves are in the database, so the relay
 * of another replica (or a later `run-job`) finds them at its next drain anyway, and which
 * relay posts them changes nothing (claims and grouping are transactional, each row once).
 */
export interface DeliveryNudge {
  /** Something became due: relays listening in this process drain now. */
  nudge(): void;
  /** Calls `listener` on every nudge until the returned function is called. */
  onNudge(listener: () => void): () => void;
}

export function createDeliveryNudge(): DeliveryNudge {
  const listeners = new Set<() => void>();
  return {
    nudge() {
      for (const listener of [...listeners]) listener();
    },
    onNudge(listener) {
      const own = () => listener();
      listeners.add(own);
      return () => listeners.delete(own);
    },
  };
}
