/**
 * Where a listing's rows are in an undocumented payload, whatever the service calls them
 * (`items`, `rows`, `visits`, `data.results`, …) and however deep (docs/api.md §10: crawler
 * payloads are undocumented; versions differ), and where its paging is (`meta`,
 * `pagination`, next to the list or at the top; `next_cursor`, `nextCursor`, `next`).
 * The bot once read only `items` and said "nothing to show" above the very rows it then
 * dumped as a payload.
 */
import { isObj, type Obj } from './payload-values.js';

interface FoundList {
  /** Keys from the payload down to the list. */
  path: string[];
  items: unknown[];
}

interface ListPaging {
  total?: number | undefined;
  /** The cursor of the next page; undefined at the end. */
  nextCursor?: string | undefined;
  /** Where the paging fields are (from the payload down): left out of the summary. */
  paths: string[][];
}

/** Names a listing's rows go by, best first. */
const LIST_KEYS = ['items', 'rows', 'results', 'records', 'entries', 'data', 'list'];
const PAGING_KEYS = ['meta', 'pagination', 'paging', 'page_info', 'pageInfo', 'page'];
const TOTAL_KEYS = ['total', 'total_count', 'totalCount', 'total_items', 'count'];
const NEXT_KEYS = [
  'next_cursor',
  'nextCursor',
  'next',
  'cursor_next',
  'next_page_cursor',
  'end_cursor',
  'endCursor',
];
const MAX_DEPTH = 3;

interface Candidate extends FoundList {
  records: number;
}

function collect(value: Obj, path: string[], out: Candidate[]): void {
  if (path.length > MAX_DEPTH) return;
  for (const [key, v] of Object.entries(value)) {
    if (Array.isArray(v)) {
      const records = v.filter(isObj).length;
      // A list of records, or an empty list that could have been one.
      if (records * 2 >= v.length) out.push({ path: [...path, key], items: v, records });
    } else if (isObj(v)) collect(v, [...path, key], out);
  }
}

const preference = (c: Candidate) => {
  const at = LIST_KEYS.indexOf(c.path.at(-1) ?? '');
  return at === -1 ? LIST_KEYS.length : at;
};

/**
 * The listing's rows: the list of records under a usual name, else the longest list of
 * records anywhere (shallowest first on a tie); an empty list only when no list has rows.
 */
export function findRecordList(payload: Obj): FoundList | undefined {
  const found: Candidate[] = [];
  collect(payload, [], found);
  const withRows = found.filter((c) => c.records > 0);
  const pool = withRows.length > 0 ? withRows : found;
  const best = [...pool].sort(
    (a, b) => preference(a) - preference(b) || b.records - a.records || a.path.length - b.path.length,
  )[0];
  return best ? { path: best.path, items: best.items } : undefined;
}

function pagingIn(o: Obj): Pick<ListPaging, 'total' | 'nextCursor'> | undefined {
  const totalKey = TOTAL_KEYS.find((k) => typeof o[k] === 'number' && Number.isFinite(o[k]));
  const nextKey = NEXT_KEYS.find((k) => k in o && (typeof o[k] === 'string' || o[k] === null));
  if (totalKey === undefined && nextKey === undefined) return undefined;
  const next = nextKey === undefined ? undefined : o[nextKey];
  // GraphQL-style paging: an end cursor means more only when there is a next page.
  const more = o['has_next_page'] ?? o['hasNextPage'] ?? o['has_more'] ?? o['hasMore'];
  return {
    total: totalKey === undefined ? undefined : (o[totalKey] as number),
    nextCursor: typeof next === 'string' && next !== '' && more !== false ? next : undefined,
  };
}

const at = (payload: Obj, path: readonly string[]): unknown =>
  path.reduce<unknown>((v, k) => (isObj(v) ? v[k] : undefined), payload);

/** The paging next to the list, else at the top of the payload. */
export function findPaging(payload: Obj, listPath: readonly string[] = []): ListPaging {
  const parents = [listPath.slice(0, -1), []].filter(
    (p, i, all) => all.findIndex((q) => q.join('.') === p.join('.')) === i,
  );
  for (const parent of parents) {
    const container = at(payload, parent);
    if (!isObj(container)) continue;
    for (const key of PAGING_KEYS) {
      const o = container[key];
      const found = isObj(o) ? pagingIn(o) : undefined;
      if (found) return { ...found, paths: [[...parent, key]] };
    }
    // Paging fields beside the list itself (`{items, next_cursor, total}`).
    const beside = pagingIn(container);
    if (beside && NEXT_KEYS.some((k) => k in container)) {
      const fields = [
        ...TOTAL_KEYS,
        ...NEXT_KEYS,
        'has_next_page',
        'hasNextPage',
        'has_more',
        'hasMore',
        'limit',
      ];
      return { ...beside, paths: fields.filter((k) => k in container).map((k) => [...parent, k]) };
    }
  }
  return { paths: [] };
}

/** The payload without what `paths` point at (a copy along each path; the rest is shared). */
export function withoutPaths(payload: Obj, paths: readonly (readonly string[])[]): Obj {
  let out = payload;
  for (const path of paths) {
    if (path.length === 0) continue;
    const [head, ...rest] = path as [string, ...string[]];
    if (!(head in out)) continue;
    const copy: Obj = { ...out };
    if (rest.length === 0) delete copy[head];
    else if (isObj(copy[head])) copy[head] = withoutPaths(copy[head] as Obj, [rest]);
    out = copy;
  }
  return out;
}
