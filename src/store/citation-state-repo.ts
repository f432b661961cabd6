/**
 * Per-URL citation state of each brand, the memory of detect-citations, stored as ONE row
 * per brand: a run over 1,000 brands × 500 URLs reads 1,000 rows, not 500 k, and writes
 * one row per brand whose state changed. Reading 500 rows per brand and building JSON
 * from them in SQLite cost more than everything else a run does with the state; one text
 * value that V8's JSON.parse reads (and JSON.stringify writes) is far cheaper.
 *
 * The packing is by column (one array per field, in the same order) rather than one array
 * per URL: JSON.parse then builds 8 arrays per brand instead of 500, which makes a load
 * about a third cheaper. JSON.stringify writes numbers so that JSON.parse reads back the
 * same value, so nothing is rounded on the way through.
 *
 * A saved state is the brand's whole state: every caller passes the detector's complete
 * next state, and merging a partial one into the stored row would mean reading it again.
 */
import type { CitationState, UrlCitationState } from '../alerts/detect-citations.js';
import type { Db } from './open-database.js';

export interface CitationStateRepo {
  load(brandId: string): CitationState;
  /**
   * Stores `state` as the brand's whole state when it holds any of `urls`, the entries
   * that changed (default: all of them); returns how many of `urls` it holds. Nothing is
   * written when none changed.
   */
  save(brandId: string, state: CitationState, nowMs: number, urls?: Iterable<string>): number;
  /** Replaces the brand's whole state (subscription baseline). */
  replace(brandId: string, state: CitationState, nowMs: number): void;
  has(brandId: string): boolean;
  /** Forgets the brand's state; returns how many URL entries it held. */
  remove(brandId: string): number;
  /** How many URL entries the brand's state holds. */
  count(brandId: string): number;
}

/** One brand's state, column by column (see the header). Migration 8 writes this shape too. */
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

function pack(state: CitationState): string {
  const n = state.size;
  const url = new Array<string>(n);
  const presence = new Array<UrlCitationState['presence']>(n);
  const presenceAtMs = new Array<number | null>(n);
  const sentiment = new Array<number | null>(n);
  const sentimentAtMs = new Array<number | null>(n);
  const competitors = new Array<string[]>(n);
  const version = new Array<number>(n);
  const lastEvent = new Array<string | null>(n);
  let i = 0;
  // forEach hands over key and value without an iterator result object per entry.
  state.forEach((s, key) => {
    url[i] = key;
    presence[i] = s.presence;
    presenceAtMs[i] = s.presenceAtMs;
    sentiment[i] = s.sentiment;
    sentimentAtMs[i] = s.sentimentAtMs;
    competitors[i] = s.competitors;
    version[i] = s.version;
    lastEvent[i] = s.lastEvent;
    i += 1;
  });
  const columns: PackedColumns = [
    url,
    presence,
    presenceAtMs,
    sentiment,
    sentimentAtMs,
    competitors,
    version,
    lastEvent,
  ];
  return JSON.stringify(columns);
}

function unpack(text: string): CitationState {
  const [url, presence, presenceAtMs, sentiment, sentimentAtMs, competitors, version, lastEvent] = JSON.parse(
    text,
  ) as PackedColumns;
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

  return {
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
  };
}
