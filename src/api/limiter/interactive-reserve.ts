/**
 * Tokens the background lane leaves in the bucket for people in Slack. One is always kept
 * (a single command goes at once even while jobs drain the key). When interactive calls
 * arrive together (several people, or one command fanning out) the reserve grows to the
 * largest such burst seen recently, so a burst of k waits no more than one token interval
 * instead of k; it shrinks back once no burst that size has been seen for `spanMs`. Jobs
 * alone (run-job) never see an interactive call and keep the whole burst less one token.
 */

interface InteractiveReserveOptions {
  /** Arrivals closer together than this count as one burst (a token interval). */
  togetherMs: number;
  /** How long a burst keeps the reserve up. */
  spanMs: number;
  /** Upper bound of the reserve in tokens. */
  maxTokens: number;
}

export class InteractiveReserve {
  private arrivals: number[] = [];
  private peak = 1;
  private peakAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: InteractiveReserveOptions) {}

  /** An interactive call was queued at `nowMs`. */
  arrived(nowMs: number): void {
    const edge = nowMs - this.options.togetherMs;
    this.arrivals = this.arrivals.filter((t) => t > edge);
    this.arrivals.push(nowMs);
    const burst = this.arrivals.length;
    if (burst >= this.tokens(nowMs)) {
      this.peak = burst;
      this.peakAt = nowMs;
    }
  }

  tokens(nowMs: number): number {
    const recent = nowMs - this.peakAt <= this.options.spanMs ? this.peak : 1;
    return Math.max(1, Math.min(this.options.maxTokens, recent));
  }
}
