/**
 * Tokens the limiter keeps back so that the service's bucket is never behind ours. The
 * service spends a token when a request arrives, we when we grant it. Both buckets stop
 * refilling while full; after that, a request granted when ours held k tokens arrives
 * when the service's holds k + rate × (its delay − the delay of the first request after
 * the buckets were last full). So a request that travels faster than that first one
 * finds the service short by rate × the difference: a burst from a full bucket over a
 * cold connection, or a CPU-starved process whose first requests queue, leaves the
 * service behind for as long as neither bucket fills again. The margin is therefore rate
 * × the largest grant-to-response time seen since our bucket was last full (responses
 * stand in for arrivals, which are not observable; they overestimate, which is safe).
 * On a quiet machine that is a fraction of a token; on a loaded one it grows with the load.
 *
 * Any 429 that still happens means the estimate was short: each adds `stepTokens`, and the
 * addition halves with every quiet `penaltySpanMs`, so one bad minute does not cost the
 * burst for good. The whole margin is capped (`maxTokens`): beyond it the 429 path (pause,
 * resume at the refill rate) is cheaper than keeping more of the burst idle.
 */

export interface SafetyMarginOptions {
  /** Tokens per ms the bucket refills at. */
  refillPerMs: number;
  /** Span after which a 429's addition halves (the limiter's window). */
  penaltySpanMs: number;
  /** Upper bound of the margin in tokens. */
  maxTokens: number;
  /** Tokens one 429 adds. */
  stepTokens: number;
}

export class SafetyMargin {
  /** Largest grant-to-response time since the bucket was last full, ms. */
  private peakMs = 0;
  private penalty = 0;
  private penaltyAt = 0;

  constructor(private readonly options: SafetyMarginOptions) {}

  /** A grant-to-response time. */
  record(latencyMs: number): void {
    this.peakMs = Math.max(this.peakMs, latencyMs);
  }

  /** Our bucket is full, so the service's is too: both start afresh. */
  bucketFull(): void {
    this.peakMs = 0;
  }

  /** A 429 of the key's bucket: the margin was short. */
  record429(nowMs: number): void {
    this.penalty = this.penaltyNow(nowMs) + this.options.stepTokens;
    this.penaltyAt = nowMs;
  }

  /** The largest grant-to-response time since the bucket was last full, ms. */
  latencyMs(): number {
    return this.peakMs;
  }

  tokens(nowMs: number): number {
    const fromLatency = this.peakMs * this.options.refillPerMs;
    return Math.min(this.options.maxTokens, fromLatency + this.penaltyNow(nowMs));
  }

  private penaltyNow(nowMs: number): number {
    if (this.penalty === 0) return 0;
    const quietSpans = Math.floor(Math.max(0, nowMs - this.penaltyAt) / this.options.penaltySpanMs);
    return quietSpans >= 30 ? 0 : this.penalty / 2 ** quietSpans;
  }
}
