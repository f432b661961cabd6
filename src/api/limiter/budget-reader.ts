/**
 * The shared budget as this process last read it, for the synchronous state() that
 * metrics, /healthz and status call. Reads run beside the grant decisions, never in their
 * turn (a read must not delay a grant): one at a time, and one more when asked meanwhile,
 * so the last read starts after the last change this process made.
 */
import type { Clock } from '../../clock.js';
import type { Logger } from '../../logger.js';
import type { BudgetStore, SharedSnapshot } from './budget-store.js';

export class BudgetReader {
  /** The store as last read. */
  snapshot: SharedSnapshot;
  /** When the last read started (-∞: never). */
  readAt = Number.NEGATIVE_INFINITY;
  private reading: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    private readonly store: Pick<BudgetStore, 'snapshot'>,
    private readonly clock: Clock,
    initial: SharedSnapshot,
    private readonly logger?: Logger,
  ) {
    this.snapshot = initial;
  }

  /** Starts a read, or asks the one under way for another after it. */
  refresh(): void {
    if (this.stopped) return;
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = this.readUntilCurrent().finally(() => {
      this.reading = null;
    });
  }

  /** Settles when no read is under way. */
  async current(): Promise<void> {
    while (this.reading) await this.reading;
  }

  /** No new reads (the store is about to close). */
  stop(): void {
    this.stopped = true;
  }

  private async readUntilCurrent(): Promise<void> {
    do {
      this.again = false;
      const at = this.clock.now();
      // Set first: a store that fails is asked again after pollMs, not on every state().
      this.readAt = at;
      try {
        this.snapshot = await this.store.snapshot(at);
      } catch (error) {
        this.logger?.warn({ err: error }, 'The rate limiter could not read the shared budget');
      }
    } while (this.again && !this.stopped);
  }
}
