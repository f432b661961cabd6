/**
 * The limiter's dispatcher loop: while waiters are queued, it asks for one grant at a time
 * and sleeps exactly until the earliest waiter could go (never longer than `pollMs`: other
 * processes and clock steps may change the answer), or until `pump()` says a waiter arrived
 * or left, which cuts the sleep short. One loop per limiter; `pump()` starts it when idle.
 */
import type { Clock } from '../../clock.js';

interface GrantLoopOptions {
  clock: Clock;
  /** Longest sleep before the shared state is read again. */
  pollMs: number;
  /** Whether there is anyone to grant to (false ends the loop until the next pump). */
  hasWaiters(): boolean;
  /** Grants one waiter (0) or says how long until one may go. */
  grantOne(): Promise<number>;
}

export class GrantLoop {
  private running = false;
  /** A waiter arrived or left while a decision was with the store: decide again at once. */
  private rerun = false;
  private wake: AbortController | null = null;
  private stopped = false;

  constructor(private readonly o: GrantLoopOptions) {}

  /** A waiter arrived or left: run the loop, or wake it. */
  pump(): void {
    if (this.running) {
      this.rerun = true;
      this.wake?.abort();
      return;
    }
    void this.run();
  }

  /** Ends the loop at its next step (the limiter is closing). */
  stop(): void {
    this.stopped = true;
    this.wake?.abort();
  }

  private async run(): Promise<void> {
    this.running = true;
    try {
      while (!this.stopped && this.o.hasWaiters()) {
        this.rerun = false;
        const waitMs = await this.o.grantOne();
        if (waitMs === 0 || this.rerun) continue;
        await this.sleep(waitMs);
      }
    } finally {
      this.running = false;
    }
  }

  private async sleep(waitMs: number): Promise<void> {
    this.wake = new AbortController();
    try {
      // The wait comes from shared state that other processes can only make stricter;
      // pollMs bounds it anyway (clock steps, an operator clearing a pause).
      await this.o.clock.sleep(Math.max(1, Math.min(Math.ceil(waitMs), this.o.pollMs)), this.wake.signal);
    } catch {
      // Woken early: re-read the queue and the shared state.
    } finally {
      this.wake = null;
    }
  }
}
