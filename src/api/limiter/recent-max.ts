/** The largest value seen in the last `spanMs` (latency samples for the bucket's headroom). */
export class RecentMax {
  private samples: { at: number; value: number }[] = [];

  constructor(private readonly spanMs: number) {}

  add(value: number, nowMs: number): void {
    this.prune(nowMs);
    // A sample that is not larger than a later one can never be the max again.
    while (this.samples.length > 0 && this.samples.at(-1)!.value <= value) this.samples.pop();
    this.samples.push({ at: nowMs, value });
  }

  get(nowMs: number): number {
    this.prune(nowMs);
    return this.samples[0]?.value ?? 0;
  }

  private prune(nowMs: number): void {
    while (this.samples.length > 0 && this.samples[0]!.at <= nowMs - this.spanMs) this.samples.shift();
  }
}
