/**
 * Per-URL citation state of each brand, the memory of detect-citations. Loaded and saved
 * per brand in bulk: a run over 1,000 brands × 500 URLs reads 500 k rows. SQLite packs a
 * brand's rows into one JSON text that V8's JSON.parse reads much faster than the driver
 * converts 8 columns × 500 rows value by value; only the URLs a run changed are written.
 *
 * The packing is by column (one array per field, all filled by the same scan, so in the
 * same row order) rather than one array per row: JSON.parse then builds 8 arrays per
 * brand instead of 500, which makes the JavaScript half of a load about a third cheaper.
 * Two values are spelled out, which takes about a third off SQLite's half: a whole-number
 * sentiment (stored REAL) is emitted as an integer rather than through the float printer,
 * and the usual empty competitor list is a constant rather than a json() parse per row.
 * JSON.parse reads both back as the same values.
 */
import type { CitationState, UrlCitationState } from '../alerts/detect-citations.js';
import type { Db } from './open-database.js';

export interface CitationStateRepo {
  load(brandId: string): CitationState;
  /** Upserts the entries of `urls` (default: every URL in `state`). */
  save(brandId: string, state: CitationState, nowMs: number, urls?: Iterable<string>): number;
  /** Replaces the brand's whole state (subscription baseline). */
  replace(brandId: string, state: CitationState, nowMs: number): void;
  has(brandId: string): boolean;
  remove(brandId: string): number;
  count(brandId: string): number;
}

/** One brand's rows, column by column (see the header). */
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

export function createCitationStateRepo(db: Db): CitationStateRepo {
  const select = db
    .prepare(
      `SELECT json_array(json_group_array(url), json_group_array(presence), json_group_array(presence_at_ms),
         json_group_array(iif(sentiment = CAST(sentiment AS INTEGER), CAST(sentiment AS INTEGER), sentiment)),
         json_group_array(sentiment_at_ms),
         json_group_array(iif(competitors = '[]', json_array(), json(competitors))),
         json_group_array(version), json_group_array(last_event))
       FROM citation_state WHERE brand_id = ?`,
    )
    .pluck();
  // REPLACE rather than ON CONFLICT DO UPDATE: the row is always written whole, and one
  // B-tree seek instead of two makes the per-run writes about a fifth cheaper.
  const upsert = db.prepare(
    `INSERT OR REPLACE INTO citation_state (brand_id, url, presence, presence_at_ms, sentiment, sentiment_at_ms, competitors, version, last_event, updated_at_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const del = db.prepare('DELETE FROM citation_state WHERE brand_id = ?');
  const exists = db.prepare('SELECT 1 FROM citation_state WHERE brand_id = ? LIMIT 1').pluck();
  const countRows = db.prepare('SELECT COUNT(*) FROM citation_state WHERE brand_id = ?').pluck();

  const writeAll = (brandId: string, state: CitationState, nowMs: number, urls: Iterable<string>) => {
    let n = 0;
    for (const url of urls) {
      const s = state.get(url);
      if (!s) continue;
      upsert.run(
        brandId,
        url,
        s.presence,
        s.presenceAtMs,
        s.sentiment,
        s.sentimentAtMs,
        s.competitors.length === 0 ? '[]' : JSON.stringify(s.competitors),
        s.version,
        s.lastEvent,
        nowMs,
      );
      n += 1;
    }
    return n;
  };
  const replaceAll = (brandId: string, state: CitationState, nowMs: number) => {
    del.run(brandId);
    writeAll(brandId, state, nowMs, state.keys());
  };
  // Called on their own, these run in a transaction of their own. Inside a caller's
  // transaction (the jobs always call them there) they write directly and that transaction
  // makes them atomic: a throw out of them rolls it back. A savepoint there would copy every
  // page the write touches into a sub-journal, which past 64 KiB (most brands) spills to a
  // temp file SQLite creates and deletes again: close to half the time of a save.
  const save = db.transaction(writeAll);
  const replace = db.transaction(replaceAll);

  return {
    load(brandId) {
      const [url, presence, presenceAtMs, sentiment, sentimentAtMs, competitors, version, lastEvent] =
        JSON.parse(select.get(brandId) as string) as PackedColumns;
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
    },
    save: (brandId, state, nowMs, urls) =>
      (db.inTransaction ? writeAll : save.immediate)(brandId, state, nowMs, urls ?? state.keys()),
    replace(brandId, state, nowMs) {
      (db.inTransaction ? replaceAll : replace.immediate)(brandId, state, nowMs);
    },
    has: (brandId) => exists.get(brandId) !== undefined,
    remove: (brandId) => del.run(brandId).changes,
    count: (brandId) => countRows.get(brandId) as number,
  };
}
