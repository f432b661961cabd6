/**
 * Per-URL citation state of each brand, the memory of detect-citations, stored as ONE row
 * per brand: a run over 1,000 brands × 500 URLs reads 1,000 rows, not 500 k, and writes
 * one row per brand whose state changed.
 *
 * Most of a brand's URLs are in one of a few states: every event of a snapshot carries the
 * snapshot's timestamp, so the URLs that changed on the same day in the same way hold equal
 * entries. The row therefore keeps each distinct entry once and, per URL, the number of its
 * entry (`[urls, entries, codes]`, format 2). Loading builds one shared, frozen object per
 * distinct entry instead of one per URL, and parses a few small integers per URL instead
 * of seven values: for 1,000 brands × 475 URLs that is a tenth of the objects and under
 * half the text, which is what a run spent most of its state time on. The detector never
 * mutates an entry (it writes a new object for a URL that changes), so sharing is safe, and
 * freezing makes a mistake throw rather than change several URLs at once.
 *
 * Rows written before format 2 (eight parallel arrays, one per field; migration 8 writes
 * them too) are still read, and rewritten in format 2 the next time the brand changes.
 * JSON.stringify writes numbers so that JSON.parse reads back the same value, so nothing
 * is rounded on the way through.
 *
 * A saved state is the brand's whole state: every caller passes the detector's complete
 * next state, and merging a partial one into the stored row would mean reading it again.
 */
import type { CitationState, UrlCitationState } from '../alerts/detect-citations.js';
import { asyncRepo } from './async-repo.js';
import type { Db } from './open-database.js';

export interface CitationStateRepo {
  load(brandId: string): Promise<CitationState>;
  /**
   * Stores `state` as the brand's whole state when it holds any of `urls`, the entries
   * that changed (default: all of them); returns how many of `urls` it holds. Nothing is
   * written when none changed.
   */
  save(brandId: string, state: CitationState, nowMs: number, urls?: Iterable<string>): Promise<number>;
  /** Replaces the brand's whole state (subscription baseline). */
  replace(brandId: string, state: CitationState, nowMs: number): Promise<void>;
  has(brandId: string): Promise<boolean>;
  /** Forgets the brand's state; returns how many URL entries it held. */
  remove(brandId: string): Promise<number>;
  /** How many URL entries the brand's state holds. */
  count(brandId: string): Promise<number>;
}

/** One distinct entry, field by field in this order. */
type PackedEntry = [
  presence: UrlCitationState['presence'],
  presenceAtMs: number | null,
  sentiment: number | null,
  sentimentAtMs: number | null,
  competitors: string[],
  version: number,
  lastEvent: string | null,
];

/** Format 2: the URLs, the distinct entries, and per URL the index of its entry. */
type PackedState = [urls: string[], entries: PackedEntry[], codes: number[]];

/** Format 1 (migration 8): one array per field, in the same order. */
type PackedColumns = [
  url: string[],
  presence: UrlCitationState['presence'][],
  presenceAtMs: (number | null)[],
  sentiment: (number | null)[],
  sentimentAtMs: (number | null)[],
  competitors: string[][],
  version: number[],
  lastEvent: (string | null)[],
];

const toPacked = (s: UrlCitationState): PackedEntry => [
  s.presence,
  s.presenceAtMs,
  s.sentiment,
  s.sentimentAtMs,
  s.competitors,
  s.version,
  s.lastEvent,
];

function fromPacked(e: PackedEntry): UrlCitationState {
  return Object.freeze({
    presence: e[0],
    presenceAtMs: e[1],
    sentiment: e[2],
    sentimentAtMs: e[3],
    competitors: Object.freeze(e[4]) as string[],
    version: e[5],
    lastEvent: e[6],
  });
}

function pack(state: CitationState): string {
  const n = state.size;
  const urls = new Array<string>(n);
  const codes = new Array<number>(n);
  const entries: PackedEntry[] = [];
  // Entries loaded together are the same object, so most URLs are found by identity; an
  // entry the detector wrote this run is matched to an equal one by its text.
  const byObject = new Map<UrlCitationState, number>();
  const byText = new Map<string, number>();
  let i = 0;
  // forEach hands over key and value without an iterator result object per entry.
  state.forEach((s, url) => {
    let code = byObject.get(s);
    if (code === undefined) {
      const packed = toPacked(s);
      const text = JSON.stringify(packed);
      code = byText.get(text);
      if (code === undefined) {
        code = entries.length;
        entries.push(packed);
        byText.set(text, code);
      }
      byObject.set(s, code);
    }
    urls[i] = url;
    codes[i] = code;
    i += 1;
  });
  const packed: PackedState = [urls, entries, codes];
  return JSON.stringify(packed);
}

function unpack(text: string): CitationState {
  const parsed = JSON.parse(text) as PackedState | PackedColumns;
  return parsed.length === 3 ? unpackEntries(parsed) : unpackColumns(parsed);
}

function unpackEntries([urls, entries, codes]: PackedState): CitationState {
  const shared = entries.map(fromPacked);
  const state: CitationState = new Map();
  for (let i = 0; i < urls.length; i++) state.set(urls[i]!, shared[codes[i]!]!);
  return state;
}

function unpackColumns(columns: PackedColumns): CitationState {
  const [url, presence, presenceAtMs, sentiment, sentimentAtMs, competitors, version, lastEvent] = columns;
  const state: CitationState = new Map();
  for (let i = 0; i < url.length; i++) {
    state.set(url[i]!, {
      presence: presence[i]!,
      presenceAtMs: presenceAtMs[i] as number | null,
      sentiment: sentiment[i] as number | null,
      sentimentAtMs: sentimentAtMs[i] as number | null,
      competitors: competitors[i]!,
      version: version[i]!,
      lastEvent: lastEvent[i] as string | null,
    });
  }
  return state;
}

export function createCitationStateRepo(db: Db): CitationStateRepo {
  const select = db.prepare('SELECT state FROM citation_state WHERE brand_id = ?').pluck();
  const upsert = db.prepare(
    `INSERT INTO citation_state (brand_id, url_count, state, updated_at_ms) VALUES (?, ?, ?, ?)
     ON CONFLICT (brand_id) DO UPDATE SET
       url_count = excluded.url_count, state = excluded.state, updated_at_ms = excluded.updated_at_ms`,
  );
  const del = db.prepare('DELETE FROM citation_state WHERE brand_id = ? RETURNING url_count').pluck();
  const countOf = db.prepare('SELECT url_count FROM citation_state WHERE brand_id = ?').pluck();

  // Each write is one statement, atomic on its own; inside a caller's transaction (the
  // jobs always call these there, next to the outbox rows) it commits or rolls back with
  // the rest.
  const write = (brandId: string, state: CitationState, nowMs: number) => {
    if (state.size === 0) del.get(brandId);
    else upsert.run(brandId, state.size, pack(state), nowMs);
  };

  return asyncRepo<CitationStateRepo>(db, {
    load(brandId) {
      const text = select.get(brandId) as string | undefined;
      return text === undefined ? new Map() : unpack(text);
    },
    save(brandId, state, nowMs, urls) {
      let n = state.size;
      if (urls !== undefined) {
        n = 0;
        for (const url of urls) if (state.has(url)) n += 1;
      }
      if (n > 0) write(brandId, state, nowMs);
      return n;
    },
    replace: write,
    has: (brandId) => countOf.get(brandId) !== undefined,
    remove: (brandId) => (del.get(brandId) as number | undefined) ?? 0,
    count: (brandId) => (countOf.get(brandId) as number | undefined) ?? 0,
  });
}
