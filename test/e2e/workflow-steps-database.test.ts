/**
 * A step whose database goes down while it runs still ends, with `fail` and a sentence a
 * workflow author can act on, never silence; and a run after the database is back
 * completes. The service runs on Postgres (as replicas do); "down" is the database
 * refusing every connection, the open ones cut, while the step waits for the API.
 */
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FunctionExecution } from '../../src/dev/local-slack/index.js';
import { SEED_BRANDS } from '../../src/dev/simulator/index.js';
import { openPostgresStore } from '../../src/store/postgres/create-postgres-store.js';
import { createPgBudgetStore } from '../../src/store/postgres/pg-budget-store.js';
import { adminUrl, usePostgresDatabase } from '../helpers/postgres-database.js';
import { type Harness, startHarness } from './service-harness.js';
import { FUNCTIONS } from './workflow-step-functions.js';

const db = usePostgresDatabase();
let h: Harness;

async function onAdmin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const dbName = () => new URL(db.url).pathname.slice(1);
const takeDown = async () => {
  await onAdmin(`ALTER DATABASE ${dbName()} WITH ALLOW_CONNECTIONS false`);
  await onAdmin(
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${dbName()}' AND pid <> pg_backend_pid()`,
  );
};
const bringBack = () => onAdmin(`ALTER DATABASE ${dbName()} WITH ALLOW_CONNECTIONS true`);

beforeAll(async () => {
  const store = await openPostgresStore(db.url);
  h = await startHarness({
    slack: { functions: FUNCTIONS },
    deps: { store, budget: (keyHash, config) => createPgBudgetStore(store.pool, keyHash, config) },
  });
});
afterAll(async () => {
  await bringBack().catch(() => {});
  await h?.close();
});

/** Starts a step, takes the database down once the step is waiting for the brand list, waits for the end. */
async function runThroughOutage(
  callbackId: string,
  inputs: Record<string, unknown>,
): Promise<FunctionExecution> {
  const asked = h.sim.requests.filter((r) => r.path === '/get-brands').length;
  h.sim.control.injectFault({ kind: 'latency', ms: 1500, path: '/get-brands' });
  const { execution, status } = await h.slack.executeFunction(h.appUrl, { callbackId, inputs });
  expect(status).toBe(200);
  await h.slack.waitFor(() => h.sim.requests.filter((r) => r.path === '/get-brands').length > asked, 15_000);
  await takeDown();
  return h.slack.waitFor(() => {
    const done = h.slack.functionExecutions().find((e) => e.id === execution.id);
    return done && done.state !== 'running' ? done : undefined;
  }, 60_000);
}

it('fails with a sentence when the database goes down mid-step, and works once it is back', async () => {
  for (const callbackId of ['get_brand_visibility', 'post_digest_now']) {
    // The brand list is fetched again, so the step is waiting on the API when the database goes.
    h.deps.brandCache.invalidate();
    const down = await runThroughOutage(callbackId, {
      brand: SEED_BRANDS.acme.name,
      channel: h.slack.defaultChannelId,
    });
    expect(down.state).toBe('failed');
    expect(down.error).toMatch(
      /could not finish: the Brand Visibility bot had a problem on its side \(for example its database not answering\), reference [0-9a-f]{6}\. Run the workflow again in a few minutes/,
    );
    await bringBack();
  }
  expect(h.slack.messages(h.slack.defaultChannelId)).toEqual([]);

  const { execution } = await h.slack.executeFunction(h.appUrl, {
    callbackId: 'get_brand_visibility',
    inputs: { brand: SEED_BRANDS.acme.name },
  });
  const back = await h.slack.waitFor(() => {
    const done = h.slack.functionExecutions().find((e) => e.id === execution.id);
    return done && done.state !== 'running' ? done : undefined;
  }, 30_000);
  expect(back.state, back.error).toBe('completed');
}, 180_000);
