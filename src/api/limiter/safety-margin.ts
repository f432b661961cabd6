/**
 * Tokens the limiter keeps back so that the service's bucket is never behind ours. The
 * service spends a token when a request arrives, we when we grant it; both buckets stop
 * refilling while full. Once ours was last full, the service's starts refilling only when
 * the first request after that reaches it, while ours refilled from the first grant. Every
 * request reaches the service after its grant, so the service never counts more requests
 * than we granted, and it holds at least ours less rate × (first arrival − first grant).
 * That gap is at most the first request's own delay, which its grant-to-response time
 * bounds from above (arrivals are not observable; responses come later, which is safe).
 *
 * So the margin is rate × the grant-to-response time of the first request granted since
 * the bucket was last full, and while that request is still in flight, rate × its age so
 * far: the service may not have started refilling yet, so tokens that refill in the
 * meantime are not spent until the answer says how late it was. Later, slower requests do
 * not matter (they only leave the service further ahead of us). On a quiet machine that
 * is a fraction of a token; on a loaded one, a first request that waits behind the others
 * of a burst makes it larger.
 *
 * Any 429 that still happens means the estimate was short: each adds `stepTokens`, and the
 * addition halves with every quiet `penaltySpanMs`, so one bad minute does not cost the
 * burst for good. That addition is capped (`maxTokens`): beyond it the 429 path (pause,
 * resume at the refill rate) is cheaper than keeping more of the burst idle. The delay
 * part is not: it is what the service provably may lag, bounded only by `maxLatencyMs`
 * (a cold start on a loaded machine can take longer to answer than a capped share of a
 * small burst covers, and every token spent beyond the lag is a 429).
 */

interface SafetyMarginOptions {
  /** Tokens per ms the bucket refills at. */
  refillPerMs: number;
  /** Span after which a 429's addition halves (the limiter's window). */
  penaltySpanMs: number;
  /** Upper bound of what 429s add, in tokens. */
  maxTokens: number;
  /** Tokens one 429 adds. */
  stepTokens: number;
  /** Longer than this is a lost request or a timeout, not a delay to pace around. */
  maxLatencyMs: number;
}

export class SafetyMargin {
  /** Grant time of the first request since the bucket was last full; null = none yet. */
  private firstAt: number | null = null;
  /** Its grant-to-response time once answered; null while it is in flight. */
  private firstLatency: number | null = null;
  private penalty = 0;
  private penaltyAt = 0;

  constructor(private readonly options: SafetyMarginOptions) {}

  /** This process granted a request. */
  granted(nowMs: number): void {
    if (this.firstAt === null) this.firstAt = nowMs;
  }

  /** The response to the request granted at `grantedAtMs` came back. */
  answered(grantedAtMs: number, nowMs: number): void {
    if (this.firstLatency === null && this.firstAt !== null && grantedAtMs === this.firstAt) {
      this.firstLatency = Math.min(nowMs - this.firstAt, this.options.maxLatencyMs);
    }
  }

  /** Our bucket is full, so the service's is too: both start afresh. */
  bucketFull(): void {
    this.firstAt = null;
    this.firstLatency = null;
  }

  /** A 429 of the key's bucket: the margin was short. */
  record429(nowMs: number): void {
    this.penalty = this.penaltyNow(nowMs) + this.options.stepTokens;
    this.penaltyAt = nowMs;
  }

  /** The delay the margin covers now, ms. */
  latencyMs(nowMs: number): number {
    if (this.firstAt === null) return 0;
    return this.firstLatency ?? Math.min(Math.max(0, nowMs - this.firstAt), this.options.maxLatencyMs);
  }

  tokens(nowMs: number): number {
    const fromLatency = this.latencyMs(nowMs) * this.options.refillPerMs;
    return fromLatency + Math.min(this.options.maxTokens, this.penaltyNow(nowMs));
  }

  private penaltyNow(nowMs: number): number {
    if (this.penalty === 0) return 0;
    const quietSpans = Math.floor(Math.max(0, nowMs - this.penaltyAt) / this.options.penaltySpanMs);
    return quietSpans >= 30 ? 0 : this.penalty / 2 ** quietSpans;
  }
}
