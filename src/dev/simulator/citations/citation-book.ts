/**
 * A brand's daily citation snapshots: which pages were cited each day, with what
 * sentiment, how often, and next to which competitors. The seed history has some daily
 * churn (a page lost, a page found, a small sentiment move) like a real research run;
 * `appendSnapshot` adds the next day, either with explicit changes or a scripted one.
 */
import type { BrandProfile } from '../brand-profiles.js';
import { createRandom } from '../random.js';
import type { SnapshotChanges } from '../types.js';
import {
  adHocPage,
  buildCitationUniverse,
  type CitationUniverse,
  type CitedPage,
} from './citation-universe.js';

export interface SnapshotEntry {
  /** 0–100 */
  sentiment: number;
  appearances: number;
  competitors: string[];
}

/** URL → entry, for the pages cited that day. */
export type Snapshot = Map<string, SnapshotEntry>;

export interface CitationBook {
  readonly universe: CitationUniverse;
  readonly snapshots: Snapshot[];
}

/** Days of history a fresh simulator starts with. */
export const SEED_SNAPSHOTS = 60;

const entryOf = (page: CitedPage): SnapshotEntry => ({
  sentiment: page.baseSentiment,
  appearances: page.baseAppearances,
  competitors: [...page.baseCompetitors],
});

const cloneSnapshot = (s: Snapshot): Snapshot =>
  new Map([...s].map(([url, e]) => [url, { ...e, competitors: [...e.competitors] }]));

const clamp = (n: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, Math.round(n)));

export function buildCitationBook(profile: BrandProfile): CitationBook {
  const universe = buildCitationUniverse(profile);
  const first: Snapshot = new Map();
  for (const page of universe.pages.slice(0, universe.seedActive)) first.set(page.url, entryOf(page));
  const snapshots = [first];
  // Seed churn draws only from pages below reserveStart, so the reserve stays "never seen"
  // for scripted advances to add.
  const churnPool = universe.pages.slice(0, universe.reserveStart);
  for (let i = 1; i < SEED_SNAPSHOTS; i++) {
    const next = cloneSnapshot(snapshots[i - 1]!);
    const rng = createRandom(`citations:${profile.id}:seed-day:${i}`);
    const present = churnPool.filter((p) => next.has(p.url));
    const absent = churnPool.filter((p) => !next.has(p.url));
    if (rng.chance(0.6) && present.length > 0) next.delete(rng.pick(present).url);
    if (rng.chance(0.6) && absent.length > 0) {
      const page = rng.pick(absent);
      next.set(page.url, entryOf(page));
    }
    const cited = [...next.values()];
    if (rng.chance(0.5)) {
      const e = rng.pick(cited);
      e.sentiment = clamp(e.sentiment + rng.pick([-1, 1]) * rng.int(5, 12), 3, 97);
    }
    for (const e of rng.sample(cited, 3)) e.appearances = Math.max(1, e.appearances + rng.pick([-1, 1]));
    if (rng.chance(0.12)) addCompetitor(profile, rng.pick(cited), rng);
    snapshots.push(next);
  }
  return { universe, snapshots };
}

function addCompetitor(
  profile: BrandProfile,
  entry: SnapshotEntry,
  rng: ReturnType<typeof createRandom>,
): string | null {
  const missing = profile.competitors.filter((c) => !entry.competitors.includes(c));
  if (missing.length === 0) return null;
  const competitor = rng.pick(missing);
  entry.competitors.push(competitor);
  entry.competitors.sort();
  return competitor;
}

/** Appends a copy of the latest snapshot with the explicit changes applied. */
export function appendExplicit(book: CitationBook, profile: BrandProfile, changes: SnapshotChanges): void {
  const next = cloneSnapshot(book.snapshots.at(-1)!);
  for (const url of changes.lose ?? []) next.delete(url);
  if (changes.dropModel !== undefined) {
    for (const url of modelUrls(book, changes.dropModel, next)) next.delete(url);
  }
  if (changes.restoreModel !== undefined) {
    // The last snapshot in which the model still cited the brand: its pages come back.
    const before = [...book.snapshots]
      .reverse()
      .find((s) => modelUrls(book, changes.restoreModel!, s).length > 0);
    for (const url of before ? modelUrls(book, changes.restoreModel, before) : []) {
      next.set(url, { ...before!.get(url)!, competitors: [...before!.get(url)!.competitors] });
    }
  }
  for (const url of changes.add ?? []) {
    if (next.has(url)) continue;
    const page = book.universe.byUrl.get(url) ?? adHocPage(book.universe, profile, url);
    next.set(url, entryOf(page));
  }
  for (const { url, to } of changes.sentiment ?? []) {
    const entry = next.get(url);
    if (!entry) throw new Error(`sentiment change for a URL that is not cited: ${url}`);
    entry.sentiment = clamp(to, 0, 100);
  }
  for (const { url, competitor } of changes.competitorAppeared ?? []) {
    const entry = next.get(url);
    if (!entry) throw new Error(`competitor change for a URL that is not cited: ${url}`);
    if (!entry.competitors.includes(competitor)) {
      entry.competitors.push(competitor);
      entry.competitors.sort();
    }
  }
  book.snapshots.push(next);
}

/** The URLs of `snapshot` that `model` cites. */
function modelUrls(book: CitationBook, model: string, snapshot: Snapshot): string[] {
  if (!book.universe.pages.some((p) => p.model === model)) throw new Error(`unknown model: ${model}`);
  return [...snapshot.keys()].filter((url) => book.universe.byUrl.get(url)?.model === model);
}

/** Appends an unchanged copy of the latest snapshot (the other brands on an explicit advance). */
export function appendUnchanged(book: CitationBook): void {
  book.snapshots.push(cloneSnapshot(book.snapshots.at(-1)!));
}

/**
 * Appends the scripted daily change: two URLs lost, two new (never-seen pages first), one
 * sentiment drop of 20–30 points and one competitor appearing on a page still cited.
 */
export function appendScripted(book: CitationBook, profile: BrandProfile): void {
  const index = book.snapshots.length;
  const rng = createRandom(`citations:${profile.id}:advance:${index}`);
  const next = cloneSnapshot(book.snapshots.at(-1)!);
  const { pages } = book.universe;

  const present = pages.filter((p) => next.has(p.url));
  const lost = rng.sample(present, 2);
  for (const page of lost) next.delete(page.url);

  const seenBefore = new Set(book.snapshots.flatMap((s) => [...s.keys()]));
  const neverSeen = pages.filter((p) => !next.has(p.url) && !seenBefore.has(p.url));
  const absent = pages.filter((p) => !next.has(p.url) && !lost.includes(p));
  const added = rng.sample(neverSeen.length >= 2 ? neverSeen : absent, 2);
  for (const page of added) next.set(page.url, entryOf(page));

  const stayed = present.filter((p) => !lost.includes(p));
  const candidates = stayed.filter((p) => next.get(p.url)!.sentiment >= 50);
  const dropPage =
    candidates.length > 0
      ? rng.pick(candidates)
      : stayed.reduce((a, b) => (next.get(a.url)!.sentiment >= next.get(b.url)!.sentiment ? a : b));
  const dropEntry = next.get(dropPage.url)!;
  dropEntry.sentiment = Math.max(0, dropEntry.sentiment - rng.int(20, 30));

  const competitorPages = rng.sample(
    stayed.filter((p) => p !== dropPage),
    stayed.length,
  );
  for (const page of competitorPages) {
    if (addCompetitor(profile, next.get(page.url)!, rng) !== null) break;
  }
  book.snapshots.push(next);
}
