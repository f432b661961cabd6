/**
 * serve's scheduler extension on Postgres (DATABASE_URL): the scheduler's ticks go to
 * pg-boss in the same database, the catch-up at start runs, and the service's shutdown
 * ends pg-boss with it. When pg-boss cannot start, the replica ticks with node-cron and
 * says why.
 */
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AppDeps, openAppDeps } from '../../src/app-deps.js';
import { loadConfig } from '../../src/config.js';
import { TICK_QUEUES } from '../../src/jobs/pg-boss-ticks.js';
import { schedulerExtension } from '../../src/jobs/scheduler-extension.js';
import { createServiceLifecycle, type OwnedServiceLifecycle } from '../../src/service-lifecycle.js';
import { manualClock } from '../helpers/manual-clock.js';
import { usePostgresDatabase } from '../helpers/postgres-database.js';
import { type FakeApi, fakeApi } from './job-fixture.js';

const database = usePostgresDatabase();
let fake: FakeApi;
let deps: AppDeps;
let lifecycle: OwnedServiceLifecycle;
let lines: Array<Record<string, unknown>>;

beforeEach(async () => {
  fake = fakeApi();
  lines = [];
  const config = loadConfig('serve', {
    VISIBILITY_API_URL: 'http://127.0.0.1:9',
    VISIBILITY_API_KEY: 'sk_live_test0000000000000000000000000000',
    SLACK_BOT_TOKEN: 'xoxb-test',
    SLACK_SIGNING_SECRET: 'test-signing-secret',
    DATABASE_URL: database.url,
  });
  const clock = manualClock(Date.parse('2025-03-10T00:30:00Z'));
  const logger = pino({ level: 'info' }, { write: (l: string) => void lines.push(JSON.parse(l)) });
  deps = await openAppDeps(config, { api: fake.api, clock, logger });
  await deps.store.subscriptions.upsert({
    channelId: 'C1',
    brandId: 'b1',
    brandName: 'B1',
    createdBy: 'U1',
    createdAtMs: clock.now(),
  });
  lifecycle = createServiceLifecycle(logger);
});
afterEach(async () => {
  await lifecycle.stop();
  await deps.close();
  const pool = database.pool({ max: 1 });
  await pool.query('DROP SCHEMA IF EXISTS visibility_boss CASCADE');
  // Every row the test wrote (poll observations decide what is due, too).
  const { rows } = await pool.query<{ name: string }>(
    `SELECT quote_ident(tablename) AS name FROM pg_tables
      WHERE schemaname = current_schema() AND tablename <> 'schema_migrations'`,
  );
  await pool.query(`TRUNCATE ${rows.map((r) => r.name).join(', ')} RESTART IDENTITY CASCADE`);
});

async function bossConnections(): Promise<number> {
  const { rows } = await database.pool({ max: 1 }).query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND application_name = 'visibility-bot-ticks'`,
  );
  return rows[0]!.n;
}

describe('serve’s scheduler on Postgres', () => {
  it('schedules its ticks on pg-boss, catches up at start, and stops with the service', async () => {
    schedulerExtension({ relayIntervalMs: 50, brandGapMs: 0 })(deps, lifecycle);
    await expect.poll(() => fake.calls.length, { timeout: 10_000 }).toBe(3);
    await expect
      .poll(
        async () =>
          (
            await database
              .pool({ max: 1 })
              .query<{ name: string; cron: string }>(
                'SELECT name, cron FROM visibility_boss.schedule ORDER BY name',
              )
              .catch(() => ({ rows: [] }))
          ).rows,
        { timeout: 10_000 },
      )
      .toEqual([
        { name: TICK_QUEUES.digest, cron: '*/5 * * * *' },
        { name: TICK_QUEUES.poll, cron: '* * * * *' },
      ]);
    expect(await bossConnections()).toBeGreaterThan(0);

    await lifecycle.stop();
    await expect.poll(() => bossConnections(), { timeout: 5000 }).toBe(0);
    expect(lines.some((l) => l['msg'] === 'ticks stopped')).toBe(true);
    expect(lines.filter((l) => Number(l['level']) >= 50)).toEqual([]);
  });

  it('falls back to node-cron ticks, saying why, when pg-boss cannot start', async () => {
    // pg-boss refuses a heartbeat under 10 s when it creates the queues, after connecting.
    schedulerExtension({ relayIntervalMs: 50, brandGapMs: 0 }, { heartbeatSeconds: 5 })(deps, lifecycle);
    await expect
      .poll(() => lines.filter((l) => Number(l['level']) >= 50).map((l) => l['msg']), { timeout: 10_000 })
      .toEqual([
        'the ticks could not start on pg-boss: this replica ticks with node-cron instead (job leases keep each job once per slot)',
      ]);
    // The fallback scheduler catches up at start like any other.
    await expect.poll(() => fake.calls.length, { timeout: 10_000 }).toBe(3);
    await expect.poll(() => bossConnections(), { timeout: 5000 }).toBe(0);
    await lifecycle.stop();
  });
});
