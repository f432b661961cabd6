/**
 * Helpers for the simulator tests: a manual clock (time moves only when a test says so),
 * a started simulator per test, and a small HTTP client that returns status, headers and
 * the parsed body exactly as they crossed the wire.
 */
import { afterEach } from 'vitest';
import {
  type RunningSimulator,
  type SimulatorOptions,
  startSimulator,
} from '../../../src/dev/simulator/index.js';
import { type ManualClock, manualClock } from '../../helpers/manual-clock.js';

/** 2025-03-14 15:00 UTC, a Friday afternoon. */
export const T0 = Date.UTC(2025, 2, 14, 15, 0, 0);

const running: RunningSimulator[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

/** Starts a simulator (closed after the test) on a manual clock unless one is given. */
export async function sim(
  options: SimulatorOptions = {},
): Promise<RunningSimulator & { clock: ManualClock }> {
  const clock = (options.clock as ManualClock | undefined) ?? manualClock(T0);
  const s = await startSimulator({ ...options, clock });
  running.push(s);
  return Object.assign(s, { clock });
}

/** Response bodies in tests: asserted field by field, so left untyped on purpose. */
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary fields of JSON bodies and assert on them.
export type AnyJson = any;

export interface WireResponse<T = AnyJson> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface CallOptions {
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** false = no Authorization header; a string = that key */
  auth?: false | string;
}

export async function call<T = AnyJson>(
  s: RunningSimulator,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<WireResponse<T>> {
  const url = new URL(s.url + path);
  for (const [k, v] of Object.entries(options.query ?? {}))
    if (v !== undefined) url.searchParams.set(k, String(v));
  const headers: Record<string, string> = {};
  if (options.auth !== false) headers['authorization'] = `Bearer ${options.auth ?? s.apiKey}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, body: body as T, text };
}

export const get = <T = AnyJson>(s: RunningSimulator, path: string, query: CallOptions['query'] = {}) =>
  call<T>(s, 'GET', path, { query });

/** Text of any of the three error-body shapes (docs/api.md §7). */
export function errorText(body: unknown): string {
  if (body === null || typeof body !== 'object') return String(body);
  const b = body as Record<string, unknown>;
  if (typeof b['error'] === 'string') return b['error'];
  if (typeof b['message'] === 'string') return b['message'];
  const detail = b['detail'];
  if (typeof detail === 'string') return detail;
  if (detail && typeof detail === 'object') return String((detail as Record<string, unknown>)['message']);
  return JSON.stringify(body);
}
