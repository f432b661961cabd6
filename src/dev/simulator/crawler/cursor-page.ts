/**
 * Cursor paging of the crawler endpoints (docs/api.md §10: `cursor` + `limit` 1–100, default
 * 25; responses carry `meta: {total, limit, next_cursor}`, null cursor = end). The cursor
 * is opaque to clients; here it encodes an offset.
 */
import { invalidParam } from '../http-error.js';
import { intParam, type RequestInput, stringParam } from '../params.js';

interface CursorPage<T> {
  items: T[];
  meta: { total: number; limit: number; next_cursor: string | null };
}

const encode = (offset: number) => Buffer.from(`o:${offset}`).toString('base64url');

function decode(cursor: string): number {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = /^o:(\d{1,9})$/.exec(text);
  if (!match) throw invalidParam('cursor', 'is not a cursor this endpoint issued');
  return Number(match[1]);
}

export function cursorPage<T>(input: RequestInput, items: readonly T[]): CursorPage<T> {
  const limit = intParam(input, 'limit', { min: 1, max: 100, default: 25 });
  const cursor = stringParam(input, 'cursor');
  const offset = cursor === undefined ? 0 : decode(cursor);
  const end = offset + limit;
  return {
    items: items.slice(offset, end),
    meta: { total: items.length, limit, next_cursor: end < items.length ? encode(end) : null },
  };
}
