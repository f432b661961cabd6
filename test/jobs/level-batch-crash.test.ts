/**
 * The crawler and AI Pages jobs commit their brands in batches (brand-batch.ts) and stay
 * crash-safe: a run killed (SIGKILL, in a process of its own) inside its second batch's
 * transaction leaves the first batch whole (each channel's level state, the outbox rows,
 * the success records) and nothing of the second; the next run alerts exactly the brands
 * that were not committed, and no brand is alerted twice. On SQLite and on Postgres.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEVEL_BRANDS_PER_COMMIT } from '../../src/jobs/brand-batch.js';
import type { JobSummary } from '../../src/jobs/run-job-once.js';
import { createSqliteStore, type SqliteStore } from '../../src/store/create-sqlite-store.js';
import { openDatabase } from '../../src/store/open-database.js';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/create-postgres-store.js';
import type { Store } from '../../src/store/store.js';
import { testPostgresServers, usePostgresDatabase } from '../helpers/postgres-database.js';

const RUN = fileURLToPath(new URL('./fixtures/level-batch-run.ts', import.meta.url));
const repo = fileURLToPath(new URL('../..', import.meta.url));
const NOW = Date.parse('2025-03-10T10:30:00Z');
const BRANDS = 2 * LEVEL_BRANDS_PER_COMMIT + 5;
const CHANNEL = 'CALERTS';
const brandIds = Array.from({ length: BRANDS }, (_, i) => `brand-${String(i).padStart(2, '0')}`);

type LevelJob = 'crawler' | 'ai-pages';

function runJob(target: string, job: LevelJob, mode: 'crash' | 'run') {
  return new Promise<{ signal: NodeJS.Signals | null; summary: JobSummary | null }>((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', RUN, target, job, mode, String(NOW)],
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

async function setUp(store: Store): Promise<void> {
  for (const brandId of brandIds) {
    await store.subscriptions.upsert({
      channelId: CHANNEL,
      brandId,
      brandName: `Brand ${brandId}`,
      createdBy: 'U1',
      createdAtMs: NOW - 86_400_000,
    });
  }
}

interface Written {
  /** Brands whose channel state the run wrote. */
  state: string[];
  /** Brands with an alert in the outbox, once per row. */
  alerted: string[];
  /** Brands whose last success is this run's. */
  succeeded: string[];
}

async function written(store: Store, job: LevelJob): Promise<Written> {
  const out: Written = { state: [], alerted: [], succeeded: [] };
  const success = await store.jobRuns.lastSuccessByBrand(job);
  for (const brandId of brandIds) {
    const levels = store.channelDetectorState;
    const state =
      job === 'crawler'
        ? await levels.getCrawler(CHANNEL, brandId)
        : await levels.getAiPages(CHANNEL, brandId);
    if (state !== null) out.state.push(brandId);
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

function crashTests(job: LevelJob, open: () => Promise<{ store: Store; target: string }>) {
  it(`${job}: a run killed inside its second batch leaves the first batch whole and the second not at all; the next run alerts the rest once`, async () => {
    const { store, target } = await open();
    try {
      await setUp(store);
      const crashed = await runJob(target, job, 'crash');
      expect(crashed.signal).toBe('SIGKILL');
      expect(crashed.summary).toBeNull();

      const first = await written(store, job);
      expect(first.state).toHaveLength(LEVEL_BRANDS_PER_COMMIT);
      // State, alerts and success records of the same brands: committed together.
      expect(first.alerted).toEqual(first.state);
      expect(first.succeeded).toEqual(first.state);

      const again = await runJob(target, job, 'run');
      expect(again.signal).toBeNull();
      // AI Pages asks only brands not asked within the day: the first batch's were, and committed.
      const served = job === 'ai-pages' ? BRANDS - LEVEL_BRANDS_PER_COMMIT : BRANDS;
      expect(again.summary).toMatchObject({
        status: 'ok',
        brands: served,
        succeeded: served,
        alerts: BRANDS - LEVEL_BRANDS_PER_COMMIT,
        messages: BRANDS - LEVEL_BRANDS_PER_COMMIT,
      });
      const after = await written(store, job);
      expect(after.state).toEqual(brandIds);
      expect(after.succeeded).toEqual(brandIds);
      // One alert per brand: none lost, none repeated.
      expect(after.alerted).toEqual(brandIds);
    } finally {
      await store.close();
    }
  });
}

describe('crawler and AI Pages batches on SQLite', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'visibility-level-crash-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  for (const job of ['crawler', 'ai-pages'] as const)
    crashTests(job, async () => {
      const target = join(dir, `${job}.db`);
      return { store: createSqliteStore(openDatabase(target)), target };
    });
});

for (const server of testPostgresServers()) {
  for (const job of ['crawler', 'ai-pages'] as const) {
    describe(`${job} batches on Postgres (${server.label})`, () => {
      const database = usePostgresDatabase(server.kind);
      crashTests(job, async () => ({ store: await openPostgresStore(database.url), target: database.url }));
    });
  }
}
