/**
 * Several replicas of the Slack service in one test: each its own AppDeps (its own brand
 * cache, guest cache, limiter and background work, as a separate process has) and its own
 * server on port 0, all on one Postgres database, in front of one API simulator and one
 * local Slack. A test sends a request to whichever replica a load balancer might pick.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type AppDeps, createAppDeps } from '../../src/app-deps.js';
import { loadConfig } from '../../src/config.js';
import type { SimulatorOptions } from '../../src/dev/simulator/index.js';
import { type RunningService, startService } from '../../src/slack/create-slack-app.js';
import { createPostgresStore } from '../../src/store/postgres/create-postgres-store.js';
import { openPostgres } from '../../src/store/postgres/open-postgres.js';
import { usePostgresDatabase } from '../helpers/postgres-database.js';
import { type FakeSocketMode, startFakeSocketMode } from './fake-socket-mode.js';
import { type Backends, captureLogger, startBackends } from './service-harness.js';

export interface Replica {
  name: string;
  deps: AppDeps;
  service: RunningService;
  /** POST /slack/events of this replica (HTTP mode). */
  appUrl: string;
  logLines: string[];
}

export interface Replicas extends Backends {
  replicas: Replica[];
  /** Socket Mode only: the fake Slack end of the WebSockets. */
  fake: FakeSocketMode | undefined;
}

export interface ReplicasOptions {
  count?: number;
  /** Socket Mode with this app token (each replica opens its own connection); default HTTP mode. */
  appToken?: string;
  /** Socket Mode: how long the fake Slack waits for an ack before it redelivers on another connection. */
  ackTimeoutMs?: number;
  /** The API simulator's options (e.g. a clock the test moves, a generation time). */
  simulator?: SimulatorOptions;
}

const TABLES_KEPT = new Set(['schema_migrations']);

/**
 * Replicas for every test of a file: started before all, stopped after all; the simulator,
 * Slack and every table but the schema's version are reset before each test.
 */
export function useSlackReplicas(options: ReplicasOptions = {}): Replicas {
  const database = usePostgresDatabase();
  const out = { replicas: [] as Replica[], fake: undefined } as unknown as Replicas;
  beforeAll(async () => {
    Object.assign(out, await startBackends(options.simulator));
    if (options.appToken)
      out.fake = await startFakeSocketMode(out.slack.url, { ackTimeoutMs: options.ackTimeoutMs ?? 3000 });
    const { SLACK_SIGNING_SECRET, ...common } = out.env;
    const env = {
      ...common,
      ...(options.appToken
        ? { SLACK_APP_TOKEN: options.appToken, SLACK_API_URL: out.fake!.apiUrl }
        : { SLACK_SIGNING_SECRET: SLACK_SIGNING_SECRET! }),
    };
    const config = loadConfig('serve', env);
    for (let i = 0; i < (options.count ?? 2); i += 1) {
      const name = String.fromCharCode(65 + i);
      const logLines: string[] = [];
      // Each replica opens (and migrates, once between them) its own pool, as `serve` does.
      const { pool } = await openPostgres(database.url, { max: 4 });
      const deps = createAppDeps(config, {
        store: createPostgresStore(pool),
        logger: captureLogger(config, logLines).child({ replica: name }),
      });
      const service = await startService(deps, { port: 0, drainTimeoutMs: 2000 });
      out.replicas.push({ name, deps, service, appUrl: `${service.url}/slack/events`, logLines });
    }
  });
  afterAll(async () => {
    for (const r of out.replicas.splice(0)) {
      await r.service.stop();
      await r.deps.close();
    }
    await out.fake?.close();
    await out.slack?.close();
    await out.sim?.close();
    if (out.dir) rmSync(out.dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    out.slack.reset();
    out.sim.control.reset();
    const pool = (out.replicas[0]!.deps.store as ReturnType<typeof createPostgresStore>).pool;
    const { rows } = await pool.query<{ name: string }>(
      `SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = current_schema()`,
    );
    const tables = rows.map((r) => r.name).filter((t) => !TABLES_KEPT.has(t));
    if (tables.length > 0) await pool.query(`TRUNCATE ${tables.join(', ')} RESTART IDENTITY CASCADE`);
    for (const r of out.replicas) r.logLines.splice(0);
  });
  return out;
}
