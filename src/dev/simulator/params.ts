/**
 * Reading request parameters the way the service validates them (docs/api.md §4 and the
 * bounds of §8). Every failure is a 400 naming the parameter.
 */
import { invalidParam } from './http-error.js';

export interface RequestInput {
  readonly query: Readonly<Record<string, string>>;
  /** parsed JSON body (writes) or undefined */
  readonly body: unknown;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID_RE.test(value);
}

function bodyValue(input: RequestInput, name: string): unknown {
  const body = input.body;
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    return (body as Record<string, unknown>)[name];
  }
  return undefined;
}

/**
 * A scalar parameter from the JSON body, else from the query string. Writes send JSON
 * bodies; reads and DELETE send query strings; a value of the wrong type is a 400.
 */
export function stringParam(input: RequestInput, name: string): string | undefined {
  const fromBody = bodyValue(input, name);
  if (fromBody !== undefined && fromBody !== null) {
    if (typeof fromBody === 'string') return fromBody;
    if (typeof fromBody === 'number' && Number.isFinite(fromBody)) return String(fromBody);
    throw invalidParam(name, 'must be a string');
  }
  const fromQuery = input.query[name];
  return fromQuery === undefined || fromQuery === '' ? undefined : fromQuery;
}

export function requiredString(input: RequestInput, name: string): string {
  const value = stringParam(input, name)?.trim();
  if (!value) throw invalidParam(name, 'is required');
  return value;
}

/** `brand_id`: required and a UUID (a malformed id is a 400, an unknown one a 404 later). */
export function brandIdParam(input: RequestInput): string {
  const value = requiredString(input, 'brand_id');
  if (!isUuid(value)) throw invalidParam('brand_id', 'must be a UUID');
  return value.toLowerCase();
}

interface IntBounds {
  min: number;
  max?: number;
  default: number;
}

export function intParam(input: RequestInput, name: string, bounds: IntBounds): number {
  const raw = stringParam(input, name);
  if (raw === undefined) return bounds.default;
  if (!/^-?\d+$/.test(raw.trim())) throw invalidParam(name, 'must be an integer');
  const value = Number(raw);
  const range =
    bounds.max === undefined ? `at least ${bounds.min}` : `between ${bounds.min} and ${bounds.max}`;
  if (value < bounds.min || (bounds.max !== undefined && value > bounds.max)) {
    throw invalidParam(name, `must be ${range}`);
  }
  return value;
}

export function enumParam<T extends string>(
  input: RequestInput,
  name: string,
  allowed: readonly T[],
  fallback: T,
): T {
  const raw = stringParam(input, name);
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw invalidParam(name, `must be one of ${allowed.join(', ')}`);
  }
  return raw as T;
}

/** Comma-separated list from a query parameter; empty items dropped. */
export function listParam(input: RequestInput, name: string): string[] {
  const raw = stringParam(input, name);
  if (raw === undefined) return [];
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
