/**
 * Faults queued by tests: rate limits (HTTP 429 + Retry-After), platform errors
 * (200 `{ok:false}`), "accepted, then the connection dropped", and "accepted, then no answer
 * ever" (a stall, so a test can kill the caller between Slack's accept and its bookkeeping).
 * Each is consumed by the next matching calls; `*` matches every method.
 *
 * One switch besides: block types the workspace refuses until told otherwise
 * (`refuseBlocks`), answered `invalid_blocks` wherever blocks are sent (messages,
 * response_urls, views), the way Slack answers a workspace or client that does not have
 * the newer blocks yet; it exercises the fallback to images and text.
 */
type Fault =
  | { kind: 'rate_limited'; retryAfterSec: number }
  | { kind: 'error'; error: string }
  | { kind: 'drop_after_accept' }
  | { kind: 'stall_after_accept' };

interface Queued {
  method: string;
  remaining: number;
  fault: Fault;
}

/** The blocks Slack draws itself since 2026, which some workspaces refuse. */
const NATIVE_BLOCK_TYPES: readonly string[] = ['data_table', 'data_visualization'];

export class FaultPlan {
  readonly #queue: Queued[] = [];
  readonly #refusedBlocks = new Set<string>();

  /** From now on, blocks of these types are refused (`invalid_blocks`). */
  refuseBlocks(types: readonly string[] = NATIVE_BLOCK_TYPES): void {
    for (const type of types) this.#refusedBlocks.add(type);
  }

  /** Every block type is accepted again. */
  acceptBlocks(): void {
    this.#refusedBlocks.clear();
  }

  get refusedBlockTypes(): ReadonlySet<string> {
    return this.#refusedBlocks;
  }

  add(method: string, count: number, fault: Fault): void {
    if (!Number.isInteger(count) || count < 1)
      throw new Error(`fault count must be a positive integer: ${count}`);
    this.#queue.push({ method, remaining: count, fault });
  }

  /** Consumes and returns the first queued fault of `kinds` that matches `method`. */
  take(method: string, kinds: readonly Fault['kind'][]): Fault | undefined {
    const i = this.#queue.findIndex(
      (q) => (q.method === method || q.method === '*') && kinds.includes(q.fault.kind),
    );
    if (i < 0) return undefined;
    const q = this.#queue[i]!;
    q.remaining -= 1;
    if (q.remaining === 0) this.#queue.splice(i, 1);
    return q.fault;
  }

  clear(): void {
    this.#queue.length = 0;
    this.#refusedBlocks.clear();
  }
}
