/**
 * Tokens the limiter keeps back so that the service's bucket is never behind ours. The
 * service spends a token when a request arrives, we when we grant it; a token bucket only
 * tells the two apart when the grant-to-arrival delays differ (a slow request followed by
 * fast ones puts more arrivals into a shorter span than the grants had). The margin needed
 * is rate × that spread. Arrivals are not observable, so the spread of grant-to-response
 * times of the last few seconds stands in for it (with a single sample, the sample itself: it
 * cannot tell latency from jitter). A CPU-starved process sees that spread widen and keeps
 * more back; a quiet one runs close to the bucket's floor.
 *
 * Any 429 that still happens means the estimate was short: each adds `stepTokens`, and the
 * addition halves with every quiet window, so one bad minute does not cost the burst for good.
 * The whole margin is capped (`maxTokens`): beyond it the 429 path (pause, resume at the
 * refill rate) is cheaper than keeping more of the burst idle.
 */

export interface SafetyMarginOptions {
  /** Tokens per ms the bucket refills at. */
  refillPerMs: number;
  /**
   * Span the samples are kept for. Only requests still in flight can arrive out of step,
   * so a short span (seconds) suffices: a slow first burst does not cost margin later.
   */
  spanMs: number;
  /** Span after which a 429's addition halves (the limiter's window). */
  penaltySpanMs: number;
  /** Upper bound of the margin in tokens. */
  maxTokens: number;
  /** Tokens one 429 adds. */
  stepTokens: number;
}

interface Sample {
  at: number;
  value: number;
}

export class SafetyMargin {
  /** The last span's samples, oldest first (at most a window's grants: a few hundred). */
  private samples: Sample[] = [];
  private penalty = 0;
  private penaltyAt = 0;

  constructor(private readonly options: SafetyMarginOptions) {}

  /** A grant-to-response time seen at `nowMs`. */
  record(latencyMs: number, nowMs: number): void {
    this.prune(nowMs);
    this.samples.push({ at: nowMs, value: latencyMs });
  }

  /** A 429 of the key's bucket: the margin was short. */
  record429(nowMs: number): void {
    this.penalty = this.penaltyNow(nowMs) + this.options.stepTokens;
    this.penaltyAt = nowMs;
  }

  /** The spread of recent grant-to-response times, ms (0 without samples). */
  jitterMs(nowMs: number): number {
    this.prune(nowMs);
    if (this.samples.length === 0) return 0;
    let high = Number.NEGATIVE_INFINITY;
    let low = Number.POSITIVE_INFINITY;
    for (const s of this.samples) {
      high = Math.max(high, s.value);
      low = Math.min(low, s.value);
    }
    // One sample cannot tell latency from jitter: assume all of it is jitter.
    return this.samples.length === 1 ? high : high - low;
  }

  tokens(nowMs: number): number {
    const fromJitter = this.jitterMs(nowMs) * this.options.refillPerMs;
    return Math.min(this.options.maxTokens, fromJitter + this.penaltyNow(nowMs));
  }

  private penaltyNow(nowMs: number): number {
    if (this.penalty === 0) return 0;
    const quietSpans = Math.floor(Math.max(0, nowMs - this.penaltyAt) / this.options.penaltySpanMs);
    return quietSpans >= 30 ? 0 : this.penalty / 2 ** quietSpans;
  }

  private prune(nowMs: number): void {
    const edge = nowMs - this.options.spanMs;
    let drop = 0;
    while (drop < this.samples.length && this.samples[drop]!.at <= edge) drop++;
    if (drop > 0) this.samples.splice(0, drop);
  }
}
