/**
 * The packed text of a brand's citation state (one base row per brand, and one row per URL
 * changed since: citation-state-repo.ts), the same on every backend.
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
 * Rows written before format 2 (eight parallel arrays, one per field; SQLite's migration 8
 * writes them too) are still read, and rewritten in format 2 the next time the brand
 * changes. JSON.stringify writes numbers so that JSON.parse reads back the same value, so
 * nothing is rounded on the way through.
 */
import type { CitationState, UrlCitationState } from '../alerts/detect-citations.js';

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

export function packCitationState(state: CitationState): string {
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

/** One URL's entry as its packed fields (a row of citation_state_changes holds their JSON). */
export function packCitationEntry(state: UrlCitationState): unknown[] {
  return toPacked(state);
}

export function unpackCitationEntry(text: string): UrlCitationState {
  return fromPacked(JSON.parse(text) as PackedEntry);
}

export function unpackCitationState(text: string): CitationState {
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
