/**
 * Upgrading a database whose citation state is still one row per (brand, URL), as
 * versions before migration 8 wrote it: the state survives exactly, and the next run of
 * the citations job alerts on nothing the bot already knew, but still on what is new.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_SETTINGS } from '../../src/alerts/alert-settings.js';
import { baselineCitations, type CitationState, detectCitations } from '../../src/alerts/detect-citations.js';
import type { CitationFeedResponse, FeedEvent } from '../../src/api/schemas/citations.js';
import { createSqliteStore } from '../../src/store/create-sqlite-store.js';
import { migrateSqlite } from '../../src/store/migrate.js';
import { migrations } from '../../src/store/migrations/index.js';
import { type Db, openDatabase } from '../../src/store/open-database.js';
import { transaction } from '../../src/store/transaction.js';
import { applyCitationFeed, type CitationStores } from '../../src/use-cases/apply-citation-feed.js';

let dir: string;
let path: string;
let db: Db | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'visibility-migrate-'));
  path = join(dir, 'old.db');
});
afterEach(() => {
  db?.close();
  db = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const DAY = 86_400_000;
const NOW = Date.parse('2025-03-10T12:00:00Z');

const event = (type: string, url: string, daysAgo: number, extra: Partial<FeedEvent> = {}): FeedEvent => ({
  event_type: type,
  url,
  domain: new URL(url).hostname,
  h1: null,
  timestamp: new Date(NOW - daysAgo * DAY - 6 * 3_600_000).toISOString(),
  sentiment: 60,
  prev_sentiment: null,
  ...extra,
});

const feedOf = (brandId: string, events: FeedEvent[]): CitationFeedResponse => ({
  brand: { id: brandId, name: `Brand ${brandId}` },
  events,
  current_snapshot_date: '2025-03-10',
  previous_snapshot_date: '2025-03-03',
  total_current: events.length,
  total_previous: events.length,
});

/** A week of changes for one brand, every kind the detector keeps state for. */
function weekOf(brandId: string): FeedEvent[] {
  const u = (i: number) => `https://site${i}.example.com/${brandId}/page-${i}`;
  return [
    event('new', u(1), 6, { sentiment: 72.5 }),
    event('new', u(2), 6),
    event('lost', u(2), 3),
    event('lost', u(3), 5),
    event('new', u(4), 4, { sentiment: 80 }),
    event('sentiment_changed', u(4), 2, { sentiment: 200 / 3, prev_sentiment: 80 }),
    event('sentiment_changed', u(5), 2, { sentiment: 20, prev_sentiment: 75 }),
    event('competitor_appeared', u(6), 1, { competitor: 'Rival "Co" ü' }),
    event('competitor_appeared', u(6), 1, { competitor: null }),
    event('new', u(7), 1, { sentiment: null }),
  ];
}

/** The table and its writes exactly as the repository kept them before migration 8. */
function writeOldShape(old: Database.Database, brandId: string, state: CitationState, nowMs: number): void {
  const insert = old.prepare(
    `INSERT OR REPLACE INTO citation_state (brand_id, url, presence, presence_at_ms, sentiment, sentiment_at_ms, competitors, version, last_event, updated_at_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const [url, s] of state) {
    insert.run(
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
  }
}

/** A database at schema version 7 holding what two earlier runs of the job left. */
function oldDatabase(brands: string[]): Map<string, CitationState> {
  const old = new Database(path);
  old.pragma('journal_mode = WAL');
  migrateSqlite(old, migrations.slice(0, 7));
  expect(old.pragma('user_version', { simple: true })).toBe(7);
  const known = new Map<string, CitationState>();
  for (const brandId of brands) {
    const events = weekOf(brandId);
    // A baseline of the first days, then a run that saw the rest: versions above zero.
    const base = baselineCitations(feedOf(brandId, events.slice(0, 4)), new Map(), NOW - 4 * DAY);
    const state = detectCitations(base, feedOf(brandId, events), DEFAULT_ALERT_SETTINGS, NOW - DAY).next;
    writeOldShape(old, brandId, state, NOW - DAY);
    known.set(brandId, state);
  }
  old.close();
  return known;
}

function storesFor(d: Db): CitationStores {
  return {
    citationState: createSqliteStore(d).citationState,
    sink: {
      outbox: createSqliteStore(d).outbox(),
      snoozes: createSqliteStore(d).snoozes,
      defaultTimezone: 'UTC',
    },
  };
}

async function subscribe(d: Db, channelId: string, brandId: string) {
  return (
    await createSqliteStore(d).subscriptions.upsert({
      channelId,
      brandId,
      brandName: `Brand ${brandId}`,
      createdBy: 'U1',
      createdAtMs: NOW - 5 * DAY,
    })
  ).subscription;
}

const outboxTexts = (d: Db) =>
  (d.prepare('SELECT payload FROM outbox ORDER BY id').pluck().all() as string[]).map(
    (p) => (JSON.parse(p) as { text: string }).text,
  );

describe('migration 8: citation state packed per brand', () => {
  it('keeps every brand’s state exactly and drops the per-URL table', async () => {
    const known = oldDatabase(['b1', 'b2']);
    db = openDatabase(path);
    expect(db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(8);
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all();
    expect(tables).toContain('citation_state');
    expect(tables).not.toContain('citation_state_rows');
    expect(db.prepare('SELECT COUNT(*) FROM citation_state').pluck().get()).toBe(2);

    const repo = createSqliteStore(db).citationState;
    for (const [brandId, state] of known) {
      expect(state.size).toBe(7);
      expect(await repo.load(brandId)).toEqual(state);
      expect(await repo.count(brandId)).toBe(7);
    }
    // What the fixture is meant to cover survived: a fraction, a whole number stored as
    // REAL, competitors with quotes, versions past zero.
    const b1 = await repo.load('b1');
    expect(b1.get('https://site4.example.com/b1/page-4')!.sentiment).toBe(200 / 3);
    expect(b1.get('https://site1.example.com/b1/page-1')!.sentiment).toBe(72.5);
    expect(b1.get('https://site6.example.com/b1/page-6')!.competitors).toEqual([
      'Rival "Co" ü',
      'unknown competitor',
    ]);
    expect(Math.max(...[...b1.values()].map((s) => s.version))).toBeGreaterThan(1);
  });

  it('the next run after the upgrade alerts on nothing already known, and on what is new', async () => {
    oldDatabase(['b1']);
    db = openDatabase(path);
    const d = db;
    const stores = storesFor(d);
    const sub = await subscribe(d, 'C1', 'b1');
    // A 7-day feed lists the whole week again, as the job's next poll would see it.
    const again = feedOf('b1', weekOf('b1'));
    const counts = await transaction(d, () => applyCitationFeed(stores, 'b1', again, [sub], NOW));
    expect(counts.alerts).toBe(0);
    expect(outboxTexts(d)).toEqual([]);

    // The same week for a brand the bot never saw does alert: the zero above is the
    // migrated state at work, not a feed that cannot alert.
    const other = await subscribe(d, 'C1', 'b9');
    const fresh = await transaction(d, () =>
      applyCitationFeed(stores, 'b9', feedOf('b9', weekOf('b9')), [other], NOW),
    );
    expect(fresh.alerts).toBeGreaterThan(0);

    // A real change since the upgrade alerts once, and only that change.
    const loss = event('lost', 'https://site1.example.com/b1/page-1', 0);
    const next = await transaction(d, () =>
      applyCitationFeed(stores, 'b1', feedOf('b1', [...weekOf('b1'), loss]), [sub], NOW + DAY),
    );
    expect(next.alerts).toBe(1);
    const texts = outboxTexts(d);
    expect(texts.at(-1)).toContain('Cited page lost');
    expect(texts.at(-1)).toContain('site1.example.com');
    const repeat = await transaction(d, () =>
      applyCitationFeed(stores, 'b1', feedOf('b1', [...weekOf('b1'), loss]), [sub], NOW + 2 * DAY),
    );
    expect(repeat.alerts).toBe(0);
  });

  it('upgrades a database with no citation state at all', async () => {
    oldDatabase([]);
    db = openDatabase(path);
    const repo = createSqliteStore(db).citationState;
    expect(await repo.load('b1')).toEqual(new Map());
    expect(await repo.has('b1')).toBe(false);
  });
});
