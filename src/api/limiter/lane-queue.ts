/**
 * The in-process wait queue: two lanes. The interactive lane is ordered by rank (when the
 * person's request arrived), FIFO among equal ranks: a command's second call (the data
 * after the brand list) goes ahead of calls from commands that arrived after it, instead
 * of rejoining the back of the line. The background lane is FIFO. The dispatcher asks for
 * one head per endpoint scope, interactive lane first, so a waiter whose endpoint is
 * paused or whose window is full does not hold up later waiters for other endpoints.
 */
import type { Lane } from './types.js';

const LANES: readonly Lane[] = ['interactive', 'background'];

interface QueuedWaiter {
  readonly lane: Lane;
  readonly scope: string;
  /** Interactive grant order: lower first. Ignored in the background lane. */
  readonly rank: number;
}

export class LaneQueue<W extends QueuedWaiter> {
  private readonly lanes: Record<Lane, W[]> = { interactive: [], background: [] };

  get size(): number {
    return this.lanes.interactive.length + this.lanes.background.length;
  }

  count(lane: Lane): number {
    return this.lanes[lane].length;
  }

  push(waiter: W): void {
    const list = this.lanes[waiter.lane];
    let at = list.length;
    // Background stays FIFO: a command's follow-up polls (ideas refresh) carry its old
    // arrival time and would otherwise go ahead of the jobs on every poll.
    if (waiter.lane === 'interactive') {
      // From the back: most waiters rank last, and stopping at an equal rank keeps FIFO.
      while (at > 0 && list[at - 1]!.rank > waiter.rank) at--;
    }
    list.splice(at, 0, waiter);
  }

  /** false when the waiter was no longer queued (already granted or removed). */
  remove(waiter: W): boolean {
    const list = this.lanes[waiter.lane];
    const index = list.indexOf(waiter);
    if (index === -1) return false;
    list.splice(index, 1);
    return true;
  }

  /** The first waiter of each (lane, scope), in grant priority order. */
  heads(): W[] {
    const heads: W[] = [];
    for (const lane of LANES) {
      const seen = new Set<string>();
      for (const waiter of this.lanes[lane]) {
        if (seen.has(waiter.scope)) continue;
        seen.add(waiter.scope);
        heads.push(waiter);
      }
    }
    return heads;
  }

  /** Empties the queue, returning every waiter in priority order. */
  drain(): W[] {
    const all = LANES.flatMap((lane) => this.lanes[lane]);
    for (const lane of LANES) this.lanes[lane] = [];
    return all;
  }
}
