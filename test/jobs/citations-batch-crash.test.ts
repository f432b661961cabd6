/**
 * Brands committed in batches (brand-batch.ts) stay crash-safe: a citations run killed
 * (SIGKILL, in a process of its own) inside its second batch's transaction leaves the first
 * batch whole (state, outbox rows, success records) and nothing of the second; the next run
 * alerts exactly the brands that were not committed, and no brand is alerted twice. On
 * SQLite and on Postgres.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRANDS_PER_COMMIT } from '../../src/jobs/brand-batch.js';
import type { JobSummary } from '../../src/jobs/run-job-once.js';
import { createSqliteStore, type SqliteStore } from '../../src/store/create-sqlite-store.js';
import { openDatabase } from '../../src/store/open-database.js';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/create-postgres-store.js';
import type { Store } from '../../src/store/store.js';
import { testPostgresServers, usePostgresDatabase } from '../helpers/postgres-database.js';

const RUN = fileURLToPath(new URL('./fixtures/citations-batch-run.ts', import.meta.url));
const repo = fileURLToPath(new URL('../..', import.meta.url));
const NOW = Date.parse('2025-03-10T10:30:00Z');
/** Two batches and part of a third on either backend. */
const BRANDS = 2 * Math.max(...Object.values(BRANDS_PER_COMMIT)) + 5;
const brandIds = Array.from({ length: BRANDS }, (_, i) => `brand-${String(i).padStart(2, '0')}`);

function runJob(target: string, mode: 'crash' | 'run') {
  return new Promise<{ signal: NodeJS.Signals | null; summary: JobSummary | null }>((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', RUN, target, mode, String(NOW)],
      { cwd: repo, encoding: 'utf8', timeout: 60_000 },
      (error, stdout) => {
        const line = stdout.trim();
        resolve({
          signal: error && 'signal' in error ? ((error.signal as NodeJS.Signals | null) ?? null) : null,
          summary: line ? (JSON.parse(line) as JobSummary) : null,
        });
      },
    );
  });
}

/** Subscribed, and each with a successful run a day ago: the job alerts rather than baselines. */
async function setUp(store: Store): Promise<void> {
  for (const brandId of brandIds) {
    await store.subscriptions.upsert({
      channelId: 'CALERTS',
      brandId,
      brandName: `Brand ${brandId}`,
      createdBy: 'U1',
      createdAtMs: NOW - 86_400_000,
    });
    await store.jobRuns.recordBrandSuccess('citations', brandId, NOW - 86_400_000);
  }
}

interface Written {
  /** Brands whose lost page the stored state knows. */
  state: string[];
  /** Brands with an alert in the outbox, once per row. */
  alerted: string[];
  /** Brands whose last success is this run's. */
  succeeded: string[];
}

async function written(store: Store): Promise<Written> {
  const out: Written = { state: [], alerted: [], succeeded: [] };
  const success = await store.jobRuns.lastSuccessByBrand('citations');
  for (const brandId of brandIds) {
    const state = await store.citationState.load(brandId);
    if (state.get(`https://${brandId}.example/page`)?.presence === 'lost') out.state.push(brandId);
    if (success.get(brandId) === NOW) out.succeeded.push(brandId);
  }
  const sql = "SELECT brand_id FROM outbox WHERE kind = 'alert' ORDER BY brand_id";
  const rows =
    store.backend === 'postgres'
      ? (await (store as PostgresStore).pool.query<{ brand_id: string }>(sql)).rows
      : ((store as SqliteStore).db.prepare(sql).all() as { brand_id: string }[]);
  out.alerted = rows.map((r) => r.brand_id);
  return out;
}

function crashTests(open: () => Promise<{ store: Store; target: string }>) {
  it('a run killed inside its second batch: the first batch whole, the second not at all; the next run alerts the rest once', async () => {
    const { store, target } = await open();
    try {
      await setUp(store);
      const crashed = await runJob(target, 'crash');
      expect(crashed.signal).toBe('SIGKILL');
      expect(crashed.summary).toBeNull();

      const perCommit = BRANDS_PER_COMMIT[store.backend];
      const first = await written(store);
      expect(first.state).toHaveLength(perCommit);
      // State, alerts and success records of the same brands: committed together.
      expect(first.alerted).toEqual(first.state);
      expect(first.succeeded).toEqual(first.state);

      const again = await runJob(target, 'run');
      expect(again.signal).toBeNull();
      expect(again.summary).toMatchObject({
        status: 'ok',
        brands: BRANDS,
        succeeded: BRANDS,
        alerts: BRANDS - perCommit,
        messages: BRANDS - perCommit,
      });
      const after = await written(store);
      expect(after.state).toEqual(brandIds);
      expect(after.succeeded).toEqual(brandIds);
      // One alert per brand: none lost, none repeated.
      expect(after.alerted).toEqual(brandIds);
    } finally {
      await store.close();
    }
  });
}

describe('citations batches on SQLite', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'visibility-batch-crash-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  crashTests(async () => {
    const target = join(dir, 'bot.db');
    return { store: createSqliteStore(openDatabase(target)), target };
  });
});

for (const server of testPostgresServers()) {
  describe(`citations batches on Postgres (${server.label})`, () => {
    const database = usePostgresDatabase(server.kind);
    crashTests(async () => ({ store: await openPostgresStore(database.url), target: database.url }));
  });
}
