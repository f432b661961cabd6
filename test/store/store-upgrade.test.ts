/**
 * A database made by the release before the store was written once (the scripts under
 * test/fixtures/store-upgrade, made by that release's own code: SQLite at schema 10,
 * Postgres at 7 of its separate series) upgrades in place on every backend: every row of
 * every table is still there, unchanged, the schema version means what it means on the
 * other backend, a second start changes nothing, and the bot works on it: a slash command
 * reads its subscriptions, and a citations run detects against its stored state and
 * delivers what its outbox still held, on real HTTP to a local Slack.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJobs } from '../../src/jobs/run-jobs.js';
import { createSqliteStore } from '../../src/store/create-sqlite-store.js';
import { migrations } from '../../src/store/migrations/index.js';
import { openDatabase } from '../../src/store/open-database.js';
import type { PgPool } from '../../src/store/postgres/create-pool.js';
import { createPostgresStore } from '../../src/store/postgres/create-postgres-store.js';
import { migratePostgres } from '../../src/store/postgres/migrate-postgres.js';
import { openPostgres } from '../../src/store/postgres/open-postgres.js';
import type { Store } from '../../src/store/store.js';
import { startHarness } from '../e2e/service-harness.js';
import { ACME, NORTHWIND } from '../fixtures/store-upgrade/fill-store.js';
import { testPostgresServers, usePostgresDatabase } from '../helpers/postgres-database.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'store-upgrade');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const LATEST = migrations.length;

type Tables = Record<string, unknown[][]>;

/** Tables later migrations add: empty after the upgrade. */
const ADDED_TABLES = [
  'model_citation_state',
  'workspace_charts',
  'alert_states',
  'alert_subjects',
  'citation_state_changes',
];
const withAddedTables = (t: Tables): Tables => ({
  ...t,
  ...Object.fromEntries(ADDED_TABLES.map((name) => [name, []])),
});

/** Every row of every table (bookkeeping aside), in a stable order. */
function sqliteRows(db: Database.Database): Tables {
  const tables = db
    .prepare<[], string>(
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'",
    )
    .pluck()
    .all();
  return Object.fromEntries(
    tables.map((t) => {
      const columns = db.prepare(`SELECT * FROM "${t}" LIMIT 0`).columns().length;
      const order = Array.from({ length: columns }, (_, i) => i + 1).join(', ');
      return [t, db.prepare(`SELECT * FROM "${t}" ORDER BY ${order}`).raw().all() as unknown[][]];
    }),
  );
}

async function postgresRows(client: PgPool): Promise<Tables> {
  const { rows: tables } = await client.query<{ name: string; columns: number }>(
    `SELECT table_name AS name, count(*)::int AS columns FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name <> 'schema_migrations' GROUP BY table_name`,
  );
  const out: Tables = {};
  for (const { name, columns } of tables) {
    const order = Array.from({ length: columns }, (_, i) => i + 1).join(', ');
    const { rows } = await client.query({
      text: `SELECT * FROM "${name}" ORDER BY ${order}`,
      rowMode: 'array',
    });
    out[name] = rows as unknown[][];
  }
  return out;
}

/** The bot on `store`: a slash command reads it, a citations run writes and delivers through it. */
async function botWorksOn(store: Store): Promise<void> {
  const h = await startHarness({ deps: { store } });
  try {
    for (const id of ['C0ALERTS', 'C0DIGEST', 'COPS'])
      h.slack.addChannel({ id, name: id.toLowerCase(), isMember: true });
    const res = await h.slack.slashCommand(h.appUrl, { text: 'subscriptions', channelId: 'C0ALERTS' });
    expect(res.status).toBe(200);
    const reply = await h.slack.waitFor(() => h.slack.responsesFor(res.responseUrlId)[0], 8000);
    const text = JSON.stringify(reply.body);
    expect(text).toContain(ACME.name);
    expect(text).toContain(NORTHWIND.name);

    const summary = await runJobs(h.deps, 'citations', { relay: { paceMs: 20 }, deliverWaitMs: 10_000 });
    expect(summary.jobs.map((j) => [j.job, j.status])).toEqual([['citations', 'ok']]);
    const outbox = store.outbox();
    // What the old outbox still owed: the pending alert, and the one a dead relay had claimed.
    for (const n of [1, 2]) {
      const row = await outbox.getByDedupeKey(`C0ALERTS:alert:${ACME.id}:${n}`);
      expect(row?.status).toBe('sent');
    }
    const posted = h.slack.messages('C0ALERTS').filter((m) => m.via === 'chat.postMessage');
    expect(posted.filter((m) => m.text === `${ACME.name}: 1 changes in AI answers`)).toHaveLength(1);
    // The run compared the feed with the upgraded state and wrote it back.
    expect(await store.citationState.count(ACME.id)).toBeGreaterThan(0);
    expect(await store.jobRuns.lastSuccess('citations')).not.toBeNull();
  } finally {
    await h.close();
  }
}

describe('an SQLite file made by the release before', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'visibility-upgrade-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('upgrades in place: every row kept, the version the shared series gives it, and the bot works', async () => {
    const path = join(dir, 'visibility.db');
    const old = new Database(path);
    old.exec(fixture('sqlite-010.sql'));
    old.pragma('journal_mode = WAL');
    const before = sqliteRows(old);
    old.close();

    const db = openDatabase(path);
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST);
    expect(sqliteRows(db)).toEqual(withAddedTables(before));
    db.close();
    // A second start finds nothing to do.
    const again = openDatabase(path);
    expect(sqliteRows(again)).toEqual(withAddedTables(before));

    await botWorksOn(createSqliteStore(again));
  });
});

for (const server of testPostgresServers()) {
  describe(`a Postgres database made by the release before (${server.label})`, () => {
    const database = usePostgresDatabase(server.kind);

    it('upgrades in place: every row kept, renumbered into the shared series, and the bot works', async () => {
      const loader = database.pool({ max: 1 });
      await loader.query(fixture('postgres-007.sql'));
      const before = await postgresRows(loader);

      const { pool, version } = await openPostgres(database.url);
      try {
        expect(version).toBe(LATEST);
        expect(await postgresRows(pool)).toEqual(withAddedTables(before));
        const { rows } = await pool.query('SELECT version, name FROM schema_migrations ORDER BY version');
        expect(rows).toEqual(migrations.map((m) => ({ version: m.version, name: m.name })));
        expect(await migratePostgres(pool)).toEqual({ version: LATEST, applied: [] });

        await botWorksOn(createPostgresStore(pool, { closesDatabase: false }));
      } finally {
        await pool.end();
      }
    });
  });
}
