/**
 * A throwaway server from the operating system's own PostgreSQL package (Debian's
 * `postgresql`: 15 on bookworm), beside the embedded one (postgres-server.ts), so the store
 * is tested on the oldest major the bot supports as well as on the newest. It runs from
 * the package's binaries (/usr/lib/postgresql/<major>/bin), in a fresh temp directory,
 * on TCP 127.0.0.1 and on a Unix socket in that directory (the socket tests connect there).
 * Postgres refuses to run as root: as root, initdb and the server run as the OS user
 * `postgres` the package created.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { lookupOsUser, type OsUser } from './postgres-binaries.js';

/** Where Debian installs each major's server binaries. */
const DEBIAN_ROOT = '/usr/lib/postgresql';

export interface SystemPostgres {
  /** e.g. 15 */
  major: number;
  /** postgres://… over TCP, as the admin user. */
  adminUrl: string;
  /** The folder holding the server's Unix socket. */
  socketDir: string;
  port: number;
  password: string;
  stop(): Promise<void>;
}

/** The newest packaged major's bin folder, or null when the package is not installed. */
export function systemPostgresBin(): { bin: string; major: number } | null {
  if (!existsSync(DEBIAN_ROOT)) return null;
  const majors = readdirSync(DEBIAN_ROOT)
    .map(Number)
    .filter((m) => Number.isInteger(m) && existsSync(join(DEBIAN_ROOT, String(m), 'bin', 'postgres')))
    .sort((a, b) => b - a);
  return majors[0] === undefined
    ? null
    : { bin: join(DEBIAN_ROOT, String(majors[0]), 'bin'), major: majors[0] };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function waitUntilReady(url: string, server: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the server exited (${server.exitCode}):\n${log()}`);
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return;
    } catch (err) {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline)
        throw new Error(`the server did not answer in 30 s (${String(err)}):\n${log()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Starts the packaged server; throws, saying why, when it cannot. */
export async function startSystemPostgres(): Promise<SystemPostgres> {
  const found = systemPostgresBin();
  if (!found) throw new Error(`no PostgreSQL package under ${DEBIAN_ROOT} (apt-get install postgresql)`);
  const runAs: OsUser | undefined = process.getuid?.() === 0 ? lookupOsUser('postgres') : undefined;
  if (process.getuid?.() === 0 && !runAs)
    throw new Error('running as root, and there is no OS user "postgres"');
  const dir = mkdtempSync(join(tmpdir(), 'visibility-syspg-'));
  const password = randomBytes(12).toString('hex');
  const pwfile = join(dir, 'pw');
  writeFileSync(pwfile, password, { mode: 0o600 });
  if (runAs) {
    chownSync(dir, runAs.uid, runAs.gid);
    chownSync(pwfile, runAs.uid, runAs.gid);
  }
  const as = runAs ? { uid: runAs.uid, gid: runAs.gid } : {};
  const data = join(dir, 'data');
  try {
    execFileSync(
      join(found.bin, 'initdb'),
      [
        '-D',
        data,
        '-U',
        'postgres',
        `--pwfile=${pwfile}`,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        '--no-sync',
      ],
      { ...as, stdio: 'pipe' },
    );
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    const out = (err as { stderr?: Buffer }).stderr?.toString() ?? '';
    throw new Error(`initdb failed: ${out.trim() || String(err)}`);
  }
  const port = await freePort();
  const output: string[] = [];
  const server = spawn(
    join(found.bin, 'postgres'),
    [
      '-D',
      data,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `unix_socket_directories=${dir}`,
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'max_connections=300',
    ],
    { ...as, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 100) output.shift();
  };
  server.stdout?.on('data', keep);
  server.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  const adminUrl = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
  const stop = async () => {
    if (server.exitCode === null) {
      server.kill('SIGINT');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitUntilReady(adminUrl, server, () => output.join('').slice(-2000));
  } catch (err) {
    await stop();
    throw err;
  }
  return { major: found.major, adminUrl, socketDir: dir, port, password, stop };
}
