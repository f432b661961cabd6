/**
 * `visibility-bot migrate-store`: an SQLite database filled through the real repositories
 * (subscriptions with settings, citation and channel detector state, the outbox with
 * pending, held and claimed rows, the audit log, job runs and leases, snoozes, the rate
 * budget…) is copied into a real Postgres server and read back through the Postgres
 * repositories: everything a running bot relies on is there, equal. Every SQLite table is
 * compared row for row by count, so a table the copy forgets fails here. Refusals (data
 * already in Postgres, no SQLite file) write nothing. Once through the real CLI entry in a
 * child process, with a password in DATABASE_URL that must never be printed.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveAlertSettings } from '../../src/alerts/alert-settings.js';
import type { CitationState } from '../../src/alerts/detect-citations.js';
import { INITIAL_MODEL_STATE } from '../../src/alerts/detect-model-citations.js';
import type { BudgetStore, SharedBucketConfig } from '../../src/api/limiter/budget-store.js';
import { MIGRATE_STORE_USAGE, runMigrateStore } from '../../src/cli/migrate-store.js';
import type { Clock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { createSqliteStore } from '../../src/store/create-sqlite-store.js';
import { type Db, openDatabase } from '../../src/store/open-database.js';
import type { PgPool } from '../../src/store/postgres/create-pool.js';
import { createPostgresStore } from '../../src/store/postgres/create-postgres-store.js';
import { createPgBudgetStore } from '../../src/store/postgres/pg-budget-store.js';
import { createSqliteBudgetStore } from '../../src/store/sqlite-budget-store.js';
import { usePostgresDatabase } from '../helpers/postgres-database.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const database = usePostgresDatabase();

const T0 = 1_767_225_600_000; // 2026-01-01T00:00:00Z
const fixedClock = (now: number): Clock => ({ now: () => now, sleep: async () => {} });
const KEY_HASH = 'key-hash-of-sk_live';
const BUCKET: SharedBucketConfig = { capacity: 100, refillPerMs: 1 / 1000, perDay: 10_000, windowMs: 60_000 };

/** Strings as Postgres keeps them: NUL and lone surrogates become U+FFFD (pg-text.ts). */
function asPostgresKeepsIt(value: unknown): unknown {
  if (typeof value === 'string') {
    return value
      .replaceAll('\u0000', '\ufffd')
      .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
  }
  if (Array.isArray(value)) return value.map(asPostgresKeepsIt);
  if (value instanceof Map) return new Map([...value].map(([k, v]) => [k, asPostgresKeepsIt(v)]));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asPostgresKeepsIt(v)]));
  }
  return value;
}

const citationState = (n: number): CitationState =>
  new Map(
    Array.from({ length: n }, (_, i) => [
      `https://s${i}.example/p?q="${i}"&x=ü`,
      {
        presence: (['lost', 'present', 'unknown'] as const)[i % 3]!,
        presenceAtMs: T0 - i * 86_400_000,
        sentiment: i % 4 === 0 ? null : (i % 100) / 3,
        sentimentAtMs: i % 4 === 0 ? null : T0,
        competitors: i % 5 === 0 ? ['Rival', `Other "${i}" \\ ü\n`] : [],
        version: i % 4,
        lastEvent: i % 2 === 0 ? 'new' : null,
      },
    ]),
  );

/** What `fill` wrote that the readers below need to find it again. */
interface Filled {
  outboxIds: number[];
  /** The highest outbox id SQLite ever handed out (its row was purged since). */
  lastOutboxId: number;
}

/** A bot's SQLite database after some days of work, written by the real repositories. */
async function fill(db: Db): Promise<Filled> {
  const subs = createSqliteStore(db).subscriptions;
  const acme = await subs.upsert({
    channelId: 'C1',
    brandId: 'brand-acme',
    brandName: 'Acme <Shoes> & "Co"',
    settings: resolveAlertSettings({
      events: ['lost'],
      sentimentDrop: 30,
      aiPagesThresholds: [50, 100],
      digestTime: '08:30',
      timezone: 'Europe/Berlin',
      quietHours: { start: '22:00', end: '07:00' },
    }),
    createdBy: 'U1',
    createdAtMs: T0,
  });
  await subs.upsert({
    channelId: 'C2',
    brandId: 'brand-acme',
    brandName: 'Acme <Shoes> & "Co"',
    digest: false,
    createdBy: 'U2',
    createdAtMs: T0 + 1,
  });
  // Text from the API that Postgres refuses as it is: NUL, a lone surrogate.
  await subs.upsert({
    channelId: 'C3',
    brandId: 'brand-odd',
    brandName: 'Odd\u0000Brand \ud800',
    createdBy: 'U1',
    createdAtMs: T0 + 2,
  });
  await subs.setMutedUntil('C2', 'brand-acme', T0 + 3_600_000);
  await subs.pauseChannel('C3', 'channel_not_found', T0 + 5);
  await subs.markDigestSent(acme.subscription.id, '2026-01-01');

  await createSqliteStore(db).citationState.replace('brand-acme', citationState(40), T0);
  await createSqliteStore(db).citationState.replace('brand-odd', citationState(3), T0);
  // A later run changed one URL: a change row over the packed state.
  const changed = citationState(40);
  const [firstUrl, first] = [...changed][0]!;
  changed.set(firstUrl, { ...first, presence: 'lost', version: first.version + 1 });
  await createSqliteStore(db).citationState.save('brand-acme', changed, T0 + 1, [firstUrl]);
  const channelState = createSqliteStore(db).channelDetectorState;
  await channelState.putCrawler('C1', 'brand-acme', { dropping: true, episode: 2, lastChangePct: -42.5 }, T0);
  await channelState.putAiPages(
    'C1',
    'brand-acme',
    {
      period: '2026-02-01',
      firedLevels: [50],
      enabled: true,
      disabledEpisodes: 1,
      unavailable: null,
      unavailableEpisodes: 0,
      lastPercentage: 61.25,
    },
    T0,
  );

  const outbox = createSqliteStore(db).outbox({ owner: 'serve:old-host:1' });
  const payload = (text: string) => ({
    text,
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }],
    metadata: { event_type: 'visibility_alert', event_payload: { key: text } },
  });
  const claimed = await outbox.enqueue({
    dedupeKey: 'alert:C1:brand-acme:lost:1',
    channelId: 'C1',
    brandId: 'brand-acme',
    kind: 'alert',
    payload: payload('Lost a citation on <https://x.example|x> \u0000 \ud83d'),
    nowMs: T0,
  });
  const held = await outbox.enqueue({
    dedupeKey: 'alert:C2:brand-acme:lost:1',
    channelId: 'C2',
    brandId: 'brand-acme',
    kind: 'alert',
    payload: payload('Held for quiet hours'),
    nowMs: T0,
    holdUntilMs: T0 + 3_600_000,
  });
  const later = await outbox.enqueue({
    dedupeKey: 'digest:C1:brand-acme:2026-01-02',
    channelId: 'C1',
    brandId: 'brand-acme',
    kind: 'digest',
    payload: payload('Digest'),
    nowMs: T0,
    sendAfterMs: T0 + 86_400_000,
  });
  expect((await outbox.claimDue(T0 + 10, 1, { leaseMs: 60_000 })).map((m) => m.id)).toEqual([claimed.id]);
  const sent = await outbox.enqueue({
    dedupeKey: 'ops:key_rejected:1',
    channelId: 'COPS',
    kind: 'ops',
    payload: payload('Key rejected'),
    nowMs: T0 + 20,
  });
  expect((await outbox.claimDue(T0 + 30, 1)).map((m) => m.id)).toEqual([sent.id]);
  await outbox.markSent(sent.id, '1767225600.000100', T0 + 40);
  // The newest row is gone: a new row must still never get its id.
  expect(await outbox.purgeFinished(T0 + 50)).toBe(1);

  const audit = createSqliteStore(db).auditLog;
  await audit.record({
    atMs: T0,
    userId: 'U1',
    channelId: 'C1',
    brandId: 'brand-acme',
    action: 'subscribe',
    detail: { events: ['lost'], note: 'nul \u0000 and \ud800 here' },
    result: 'ok',
  });
  await audit.record({ atMs: T0 + 1, userId: 'U2', action: 'markets.add', result: 'error: api_conflict' });

  const jobs = createSqliteStore(db, { clock: fixedClock(T0 + 100) }).jobRuns;
  const run1 = await jobs.start('citations', 'serve:old-host:1');
  await jobs.finish(run1, { ok: true, counts: { brands: 2, alerts: 3 } });
  const run2 = await jobs.start('crawler', 'run-job:old-host:7');
  await jobs.finish(run2, { ok: false, error: 'api_server: 503' });
  await jobs.start('digest', 'serve:old-host:1'); // still running when the bot stopped
  await jobs.recordBrandSuccess('citations', 'brand-acme', T0 + 90);
  await jobs.recordBrandSuccess('citations', 'brand-odd', T0 + 95);
  expect(await jobs.acquireLease('digest', 'serve:old-host:1', 600_000)).toBe(true);

  await createSqliteStore(db).snoozes.snooze({
    channelId: 'C1',
    brandId: 'brand-acme',
    kind: 'crawler',
    untilMs: T0 + 86_400_000,
    createdBy: 'U1',
    createdAtMs: T0,
  });
  await createSqliteStore(db).channelDefaults.set({
    channelId: 'C1',
    brandId: 'brand-acme',
    setBy: 'U1',
    atMs: T0,
  });
  await createSqliteStore(db).handledRequests.remember('trigger:123.456', T0, 3_600_000);
  await createSqliteStore(db).channelPace.blockUntil('C1', T0 + 30_000);
  await createSqliteStore(db).pollObservations.put(
    'brand-acme',
    'ai-pages',
    { percentage_used: 61.25, samples: [{ at: T0, pct: 61.25 }], reset_date: '2026-02-01' },
    T0,
  );
  const flags = createSqliteStore(db).healthFlags;
  await flags.raise('key_rejected', 'HTTP 401', T0);
  await flags.markReported('key_rejected', 'raised', T0 + 1);
  await flags.raise('job_failing:crawler', 'api_server: 503', T0 + 2);

  const bucket = createSqliteBudgetStore(db, KEY_HASH, BUCKET);
  const take = await bucket.takeFirst(
    () => T0,
    [{ scope: '/brands/{id}/citations', limit: 60, tokensLeft: 0, slotsLeft: 0 }],
  );
  expect(take.kind).toBe('granted');
  // Its response settles the send; a 429 on a brand write pauses that group, which drains.
  const citations = { scope: '/brands/{id}/citations', limit: 60, headerSinceMs: null };
  await bucket.react({ ...citations, nowMs: T0 + 200 }, () => []);
  await bucket.react({ scope: 'group:brand-writes', limit: 10, nowMs: T0, headerSinceMs: null }, () => [
    { op: 'pauseScope', untilMs: T0 + 30_000, drain: true },
  ]);

  // What the later features keep: an alert's owner state and subjects, a model's citing
  // record, a workspace whose Slack refused a chart.
  const store = createSqliteStore(db);
  await store.alertStates.recordPosted({
    outboxId: sent.id,
    channelId: 'C1',
    messageTs: '1767225600.000100',
    brandId: 'brand-acme',
    headline: 'Cited page lost',
    kinds: ['citation_lost'],
    alertCount: 1,
    postedAtMs: T0,
    subjects: ['citation_lost:https://x.example/'],
  });
  await store.modelCitationState.save('brand-acme', INITIAL_MODEL_STATE, T0);
  await store.workspaceCharts.rememberImages('T01', T0, 'invalid_blocks');

  const outboxIds = [claimed.id, held.id, later.id];
  return { outboxIds, lastOutboxId: sent.id };
}

/** The budget's count of citation sends after `sinceMs`, as a reaction to a response reads it. */
async function citationSendsSince(bucket: BudgetStore, sinceMs: number, nowMs: number): Promise<number> {
  let sends = -1;
  const query = { scope: '/brands/{id}/citations', limit: 60, nowMs, headerSinceMs: sinceMs };
  await bucket.react(query, (facts) => {
    sends = facts.headerSends.scope;
    return [];
  });
  return sends;
}

/** Everything a bot reads back, through one backend's repositories. */
async function readAll(on: { db: Db } | { pool: PgPool }, filled: Filled) {
  const sqlite = 'db' in on;
  const at = fixedClock(T0 + 100);
  const store = sqlite
    ? createSqliteStore(on.db, { clock: at, closesDatabase: false })
    : createPostgresStore(on.pool, { clock: at, closesDatabase: false });
  const subs = store.subscriptions;
  const citations = store.citationState;
  const channelState = store.channelDetectorState;
  const outbox = store.outbox();
  const audit = store.auditLog;
  const jobs = store.jobRuns;
  const snoozes = store.snoozes;
  const defaults = store.channelDefaults;
  const polls = store.pollObservations;
  const flags = store.healthFlags;
  const bucket = sqlite
    ? createSqliteBudgetStore(on.db, KEY_HASH, BUCKET)
    : createPgBudgetStore(on.pool, KEY_HASH, BUCKET);
  return {
    subscriptions: await subs.listAll(),
    activeBrands: await subs.activeBrandIds(),
    citations: {
      acme: await citations.load('brand-acme'),
      odd: await citations.load('brand-odd'),
      acmeCount: await citations.count('brand-acme'),
    },
    crawler: await channelState.getCrawler('C1', 'brand-acme'),
    aiPages: await channelState.getAiPages('C1', 'brand-acme'),
    outbox: await Promise.all(filled.outboxIds.map((id) => outbox.get(id))),
    outboxCounts: await outbox.counts(),
    held: await outbox.listHeld(),
    sendingExpired: await outbox.listSending(T0 + 60_010),
    audit: await audit.recent(10),
    jobRuns: await jobs.recent(10),
    jobSuccess: await jobs.lastSuccessByBrand('citations'),
    lease: await jobs.getLease('digest'),
    snoozes: await snoozes.listActive(T0),
    channelDefault: await defaults.get('C1'),
    poll: await polls.get('brand-acme', 'ai-pages'),
    flags: await flags.active(),
    reports: await flags.pendingReports(),
    budget: await bucket.snapshot(T0 + 1000),
    sends: await citationSendsSince(bucket, T0 - 1, T0 + 1000),
  };
}

const sqliteTables = (db: Db) =>
  db
    .prepare<[], string>(
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .pluck()
    .all();

let dir = '';
let sqlitePath = '';
let pool: PgPool;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'migrate-store-'));
  sqlitePath = join(dir, 'visibility.db');
  pool = database.pool();
  // Each test starts from a Postgres database without any of the bot's tables.
  await pool.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function run(args: string[], overrides: { databasePath?: string; databaseUrl?: string } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  return runMigrateStore(
    args,
    {
      databasePath: overrides.databasePath ?? sqlitePath,
      databaseUrl: overrides.databaseUrl ?? database.url,
    },
    { out: (l) => out.push(l), err: (l) => err.push(l), lockTimeoutMs: 300 },
  ).then((code) => ({ code, out: out.join('\n'), err: err.join('\n') }));
}

async function filledSqlite(): Promise<{ filled: Filled; before: Awaited<ReturnType<typeof readAll>> }> {
  const db = openDatabase(sqlitePath);
  try {
    const filled = await fill(db);
    return { filled, before: await readAll({ db }, filled) };
  } finally {
    db.close();
  }
}

async function rowCounts(
  db: Db,
): Promise<{ sqlite: Record<string, number>; postgres: Record<string, number> }> {
  const sqlite: Record<string, number> = {};
  const postgres: Record<string, number> = {};
  for (const table of sqliteTables(db)) {
    sqlite[table] = db.prepare<[], number>(`SELECT count(*) FROM "${table}"`).pluck().get() ?? 0;
    const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table}"`);
    postgres[table] = rows[0]?.n ?? -1;
  }
  return { sqlite, postgres };
}

describe('migrate-store', () => {
  it('copies everything the bot keeps, read back equal through the Postgres repositories', async () => {
    const { filled, before } = await filledSqlite();
    const fileBefore = readFileSync(sqlitePath);

    const { code, out, err } = await run([]);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toContain('The SQLite file is only read, never changed. Stop every serve and run-job');
    expect(out).toMatch(/^ {2}subscriptions +3 {2}channel subscriptions$/m);
    expect(out).toMatch(/^ {2}outbox +3 {2}Slack messages/m);

    const after = await readAll({ pool }, filled);
    expect(after).toEqual(asPostgresKeepsIt(before));
    // The fixture holds what the story needs: a claimed row, a held row, a scheduled digest.
    expect(after.outbox.map((m) => m?.status)).toEqual(['sending', 'held', 'pending']);
    expect(after.outbox[0]?.leaseOwner).toBe('serve:old-host:1');
    expect(after.subscriptions.find((s) => s.channelId === 'C3')?.brandName).toBe('Odd\ufffdBrand \ufffd');
    expect(after.outbox[0]?.payload.text).toBe('Lost a citation on <https://x.example|x> \ufffd \ufffd');
    expect(after.subscriptions[0]?.settings.quietHours).toEqual({ start: '22:00', end: '07:00' });
    expect(after.sends).toBe(1);

    // The SQLite file is exactly as it was.
    expect(readFileSync(sqlitePath).equals(fileBefore)).toBe(true);

    // New rows never reuse an id: not even the purged outbox row's.
    const outbox = createPostgresStore(pool, { closesDatabase: false }).outbox();
    const next = await outbox.enqueue({
      dedupeKey: 'alert:new',
      channelId: 'C1',
      kind: 'alert',
      payload: { text: 'new' },
      nowMs: T0 + 1000,
    });
    expect(next.id).toBe(filled.lastOutboxId + 1);
    const newSub = await createPostgresStore(pool, { closesDatabase: false }).subscriptions.upsert({
      channelId: 'C9',
      brandId: 'brand-new',
      brandName: 'New',
      createdBy: 'U1',
      createdAtMs: T0,
    });
    expect(newSub.subscription.id).toBe(Math.max(...before.subscriptions.map((s) => s.id)) + 1);
  });

  it('copies every SQLite table, row for row', async () => {
    await filledSqlite();
    expect((await run([])).code).toBe(0);
    const db = new Database(sqlitePath, { readonly: true });
    try {
      const { sqlite, postgres } = await rowCounts(db);
      // A table the fixture leaves empty would prove nothing about its copy.
      expect(Object.entries(sqlite).filter(([, n]) => n === 0)).toEqual([]);
      expect(postgres).toEqual(sqlite);
    } finally {
      db.close();
    }
  });

  it('refuses a Postgres database that holds data, and writes nothing; --replace overwrites it', async () => {
    await filledSqlite();
    expect((await run([])).code).toBe(0);
    // The bot has run on Postgres since: a new subscription there.
    await createPostgresStore(pool, { closesDatabase: false }).subscriptions.upsert({
      channelId: 'C9',
      brandId: 'brand-pg',
      brandName: 'Only in Postgres',
      createdBy: 'U1',
      createdAtMs: T0,
    });
    const { code, out, err } = await run([]);
    expect(code).toBe(1);
    expect(err).toContain('The Postgres database already holds data (in ');
    expect(err).toContain('Nothing was copied.');
    expect(err).toContain('visibility-bot migrate-store --replace');
    expect(out).not.toContain('Copied');
    expect(
      await createPostgresStore(pool, { closesDatabase: false }).subscriptions.get('C9', 'brand-pg'),
    ).not.toBeNull();

    const replaced = await run(['--replace']);
    expect(replaced.code).toBe(0);
    expect(replaced.out).toContain('Copied (the rows Postgres held before were deleted):');
    expect(
      await createPostgresStore(pool, { closesDatabase: false }).subscriptions.get('C9', 'brand-pg'),
    ).toBeNull();
    expect((await createPostgresStore(pool, { closesDatabase: false }).subscriptions.listAll()).length).toBe(
      3,
    );
  });

  it('rolls back every table when one value cannot be converted', async () => {
    await filledSqlite();
    const db = new Database(sqlitePath);
    db.prepare("UPDATE subscriptions SET settings = '{not json' WHERE channel_id = 'C2'").run();
    db.close();
    const { code, err } = await run([]);
    expect(code).toBe(1);
    expect(err).toBe('subscriptions.settings: a row holds text that is not valid JSON; nothing was copied.');
    // audit_log comes before subscriptions: its rows were inserted, then rolled back.
    const { rows } = await pool.query<{ n: number }>(
      'SELECT (SELECT count(*) FROM audit_log)::int + (SELECT count(*) FROM outbox)::int AS n',
    );
    expect(rows[0]?.n).toBe(0);
  });

  it('gives up, writing nothing, while another connection holds a table', async () => {
    await filledSqlite();
    // Start from the bot's schema, one table locked by a replica that is still running.
    expect((await run([])).code).toBe(0);
    await pool.query('TRUNCATE subscriptions');
    const replica = await pool.connect();
    try {
      await replica.query('BEGIN');
      await replica.query('LOCK TABLE snoozes IN ROW EXCLUSIVE MODE');
      const { code, err } = await run(['--replace']);
      expect(code).toBe(1);
      expect(err).toContain('Another connection is using the Postgres database (a running replica?)');
      expect(err).toContain('Nothing was copied.');
    } finally {
      await replica.query('ROLLBACK');
      replica.release();
    }
    const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM subscriptions');
    expect(rows[0]?.n).toBe(0);
  });

  it('refuses a SQLite table Postgres has no place for, before writing anything', async () => {
    await filledSqlite();
    const db = new Database(sqlitePath);
    db.exec("CREATE TABLE custom_notes (note TEXT); INSERT INTO custom_notes VALUES ('kept by hand')");
    db.close();
    const { code, err } = await run([]);
    expect(code).toBe(1);
    expect(err).toContain('table custom_notes has no counterpart in Postgres');
    const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM subscriptions');
    expect(rows[0]?.n).toBe(0);
  });

  it('says so when the SQLite file looks in use, and still copies what it holds', async () => {
    await filledSqlite();
    const running = openDatabase(sqlitePath);
    try {
      // A serve still running: its latest write sits in the write-ahead log.
      await createSqliteStore(running).channelDefaults.set({
        channelId: 'C7',
        brandId: 'b7',
        setBy: 'U1',
        atMs: T0,
      });
      const { code, out } = await run([]);
      expect(code).toBe(0);
      expect(out).toContain(
        `Note: ${sqlitePath}-wal is not empty, so a process may still have the file open.`,
      );
      expect(await createPostgresStore(pool, { closesDatabase: false }).channelDefaults.get('C7')).toBe('b7');
    } finally {
      running.close();
    }
  });

  it('refuses when the SQLite file does not exist, without creating it or touching Postgres', async () => {
    const missing = join(dir, 'nope', 'visibility.db');
    const { code, err } = await run([], { databasePath: missing });
    expect(code).toBe(1);
    expect(err).toContain(`DATABASE_PATH=${missing} does not exist.`);
    expect(() => statSync(join(dir, 'nope'))).toThrow();
    const { rows } = await pool.query("SELECT 1 FROM pg_tables WHERE schemaname = 'public'");
    expect(rows).toEqual([]);
  });

  it('needs DATABASE_URL and nothing of the API or Slack', () => {
    expect(() => loadConfig('migrate-store', {})).toThrow(
      /DATABASE_URL is not set: set it to the Postgres database/,
    );
    const config = loadConfig('migrate-store', { DATABASE_URL: 'postgres://bot:pw@db:5432/visibility' });
    expect(config.databasePath).toBe('data/visibility.db');
    expect(config.databaseBackend).toBe('postgres');
  });

  it('refuses unknown arguments with the usage', async () => {
    expect(await run(['--force'])).toEqual({
      code: 2,
      out: '',
      err: `Unknown argument "--force".\n${MIGRATE_STORE_USAGE}`,
    });
  });

  it('copies a file an older version left behind, migrating a copy in memory only', async () => {
    await filledSqlite();
    // An older schema: the file is at version 8 (before the outbox's chart kind), as a bot
    // that was stopped before upgrading left it. Rebuild that shape on a copy.
    const old = join(dir, 'old.db');
    copyFileSync(sqlitePath, old);
    const db = new Database(old);
    db.exec(`
      CREATE TABLE outbox_old AS SELECT id, dedupe_key, channel_id, brand_id, kind, payload, status,
        attempts, next_attempt_at_ms, hold_until_ms, lease_owner, lease_until_ms, last_error, slack_ts,
        created_at_ms, sent_at_ms, send_after_ms FROM outbox;
      DROP TABLE outbox;
      ALTER TABLE outbox_old RENAME TO outbox;
      DROP TABLE channel_pace;
      DROP TABLE citation_state_changes;
      DROP TABLE alert_subjects;
      DROP TABLE alert_states;
      DROP TABLE model_citation_state;
      DROP TABLE workspace_charts;
      PRAGMA user_version = 8;
    `);
    db.close();
    const fileBefore = readFileSync(old);
    const { code, out, err } = await run([], { databasePath: old });
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toContain('The file has schema version 8, from an older version of the bot');
    expect(readFileSync(old).equals(fileBefore)).toBe(true);
    expect((await createPostgresStore(pool, { closesDatabase: false }).outbox().counts()).held).toBe(1);
  });

  it('runs through the CLI entry, never printing the password', async () => {
    await filledSqlite();
    // A role of its own (the server's admin password is shared by every test file).
    const password = 'S3cret-pass-word';
    const role = `migrator_${process.pid}`;
    await pool.query(`DROP ROLE IF EXISTS ${role}`);
    await pool.query(`CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
    await pool.query(`GRANT ALL ON SCHEMA public TO ${role}`);
    const u = new URL(database.url);
    u.username = role;
    u.password = password;
    const result = await new Promise<{ code: number | null; out: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', 'src/main.ts', 'migrate-store'],
        {
          cwd: repo,
          env: { PATH: process.env['PATH'] ?? '', DATABASE_PATH: sqlitePath, DATABASE_URL: u.toString() },
          encoding: 'utf8',
          timeout: 60_000,
        },
        (error, stdout, stderr) =>
          resolve({
            code: error ? (typeof error.code === 'number' ? error.code : null) : 0,
            out: stdout + stderr,
          }),
      );
    });
    expect(result.out).toContain(`into Postgres at ${u.hostname}:${u.port}${u.pathname}`);
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/^ {2}total +\d+ {2}rows in \d+ tables$/m);
    expect(result.out).not.toContain(password);
    expect((await createPostgresStore(pool, { closesDatabase: false }).subscriptions.listAll()).length).toBe(
      3,
    );

    // A wrong password: refused by the server, reported without the password.
    const wrong = new URL(u);
    wrong.password = 'Wrong-pass-word-42';
    const refused = await run(['--replace'], { databaseUrl: wrong.toString() });
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('DATABASE_URL: Postgres at 127.0.0.1:');
    expect(refused.err).toContain('refused the password of user');
    expect(`${refused.out}${refused.err}`).not.toContain('Wrong-pass-word-42');

    await pool.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
    await pool.query(`DROP ROLE ${role}`);
  });
});
