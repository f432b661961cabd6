/**
 * This process's grants whose responses have not come back yet, oldest first, with the
 * bucket level each left behind. A response is matched to the oldest one (requests mostly
 * answer in the order they were sent; a mismatch only shifts which level is compared, by a
 * request or two). The limiter reads two things from an answer:
 *
 * - what the service's X-RateLimit-Remaining should be for the answered request, from our
 *   own accounting: the level right after its grant, less every request we granted after
 *   it (any of them may have reached the service first). A Remaining at or above that is
 *   explained; only a shortfall below it is news (another client on the key).
 * - nothing else: the safety margin keeps its own record of the first grant after the
 *   bucket was full (safety-margin.ts).
 *
 * A grant that never gets a response (a transport error reports none) is dropped once it
 * is older than `maxAgeMs`, so it cannot shift the matching for good.
 */

export interface AnsweredGrant {
  grantedAtMs: number;
  /** The shared bucket's tokens right after this grant. */
  levelAfter: number;
  /** Grants this process made after it (still counted against the bucket). */
  laterGrants: number;
}

interface Entry {
  grantedAtMs: number;
  levelAfter: number;
  seq: number;
}

export class OwnGrants {
  private readonly entries: Entry[] = [];
  private head = 0;
  private seq = 0;

  constructor(private readonly maxAgeMs: number) {}

  granted(nowMs: number, levelAfter: number): void {
    this.seq += 1;
    this.entries.push({ grantedAtMs: nowMs, levelAfter, seq: this.seq });
  }

  /** Grants still waiting for their response (lost ones not counted). */
  inFlight(nowMs: number): number {
    this.dropLost(nowMs);
    return this.entries.length - this.head;
  }

  /** A response came back: the oldest grant still waiting for one, if any. */
  answered(nowMs: number): AnsweredGrant | undefined {
    this.dropLost(nowMs);
    if (this.head >= this.entries.length) return undefined;
    const e = this.entries[this.head]!;
    this.head += 1;
    this.compact();
    return { grantedAtMs: e.grantedAtMs, levelAfter: e.levelAfter, laterGrants: this.seq - e.seq };
  }

  private dropLost(nowMs: number): void {
    while (this.head < this.entries.length && nowMs - this.entries[this.head]!.grantedAtMs > this.maxAgeMs) {
      this.head += 1;
    }
  }

  private compact(): void {
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries.splice(0, this.head);
      this.head = 0;
    }
  }
}
