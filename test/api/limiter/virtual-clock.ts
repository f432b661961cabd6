/**
 * A Clock whose time moves only when everything else is idle: whenever no promise work is
 * pending (a setImmediate turn), it jumps to the earliest sleeper and wakes it. Minutes of
 * limiter time pass in milliseconds, and timestamps are exact, so tests can assert on them.
 */
import type { Clock } from '../../../src/clock.js';

interface Sleeper {
  at: number;
  seq: number;
  wake(): void;
}

export class VirtualClock implements Clock {
  private t: number;
  private seq = 0;
  private sleepers: Sleeper[] = [];
  private scheduled = false;

  /** Default start: midday UTC, far from a daily reset. */
  constructor(startMs = Date.UTC(2025, 0, 15, 12, 0, 0)) {
    this.t = startMs;
  }

  now(): number {
    return this.t;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      const sleeper: Sleeper = {
        at: this.t + Math.max(0, ms),
        seq: this.seq++,
        wake: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        this.sleepers = this.sleepers.filter((s) => s !== sleeper);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.sleepers.push(sleeper);
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.wakeEarliest();
    });
  }

  private wakeEarliest(): void {
    if (this.sleepers.length === 0) return;
    this.sleepers.sort((a, b) => a.at - b.at || a.seq - b.seq);
    this.t = Math.max(this.t, this.sleepers[0]!.at);
    const due = this.sleepers.filter((s) => s.at <= this.t);
    this.sleepers = this.sleepers.filter((s) => s.at > this.t);
    for (const s of due) s.wake();
    if (this.sleepers.length > 0) this.schedule();
  }
}
