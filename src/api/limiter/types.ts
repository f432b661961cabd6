/**
 * The contract between the API transport and the rate limiter. One limiter serves one
 * API key; its key bucket, daily count and pauses live in the budget store (SQLite, or
 * Postgres for replicas) so that every process using the key (serve replicas and run-job)
 * shares them.
 */
import type { EndpointKey } from '../endpoint-table.js';

export type Lane = 'interactive' | 'background';

/** What the transport saw on a response, for the limiter to adapt to. */
export interface RateLimitObservation {
  /** HTTP status; 0 when no response came (timeout, connection error, abort). */
  status: number;
  /** X-RateLimit-Limit */
  limit?: number | undefined;
  /** X-RateLimit-Remaining */
  remaining?: number | undefined;
  /** X-RateLimit-Reset, converted to epoch ms */
  resetAtMs?: number | undefined;
  /** Retry-After in ms (429 only) */
  retryAfterMs?: number | undefined;
  /** The service's error text (429 only), e.g. "Rate limit exceeded: 60 per 1 minute" */
  message?: string | undefined;
}

export interface LaneState {
  queued: number;
}

export interface LimiterState {
  plan: string;
  /** Tokens in the key bucket now (shared across processes). */
  tokens: number;
  capacity: number;
  refillPerSecond: number;
  /** Requests counted against the key today (UTC day), across processes. */
  usedToday: number;
  /** null = no daily cap */
  dailyLimit: number | null;
  /** Epoch ms when the daily count resets. */
  dailyResetAt: number;
  /** Epoch ms until which the whole key is paused after a 429, or null. */
  keyPausedUntil: number | null;
  /** Endpoints paused after a 429, with the epoch ms they resume at. */
  endpointPauses: Partial<Record<EndpointKey, number>>;
  lanes: Record<Lane, LaneState>;
  /** Total ms callers have waited for a token since start, per lane. */
  waitedMs: Record<Lane, number>;
  /** Count of 429s seen since start. */
  rateLimitedCount: number;
}

export interface RateLimiter {
  /**
   * Waits until a request to `endpoint` may be sent and counts it against the key.
   * Rejects with QuotaExhaustedError when the key's daily count is spent, and with
   * AbortedError when `signal` aborts.
   *
   * `priority` orders the interactive lane: the epoch ms the person's request arrived
   * (lower goes first, FIFO among equals), so every call a command makes keeps the
   * command's place in line. Without it a call ranks by the time it was queued. The
   * background lane stays FIFO.
   */
  acquire(endpoint: EndpointKey, lane: Lane, signal?: AbortSignal, priority?: number): Promise<void>;
  /**
   * Called once per granted request, with its response (every 429 too) so the limiter can
   * adapt and pause, or with status 0 when none came.
   */
  observe(endpoint: EndpointKey, observation: RateLimitObservation): void;
  /** Synchronous: the shared budget as last read, with this process's queues and counters. */
  state(): LimiterState;
  close(): void;
}
