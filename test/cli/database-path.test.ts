/**
 * A DATABASE_PATH folder the process cannot write (the classic: a root-owned volume and a
 * container running as an unprivileged user), through the real CLI: `check` says so
 * without creating anything, `run-job` stops at start-up with the variable, the path,
 * the uid it runs as and the folder's owner. As root, the CLI runs as `nobody` (uid 65534)
 * against a root-owned folder; as anyone else, against a folder made read-only.
 */
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { useBackends } from '../e2e/service-harness.js';

const backends = useBackends();
const repo = fileURLToPath(new URL('../..', import.meta.url));
const isRoot = process.getuid?.() === 0;
const NOBODY = 65534;

/**
 * As root the CLI runs as nobody, which needs to reach this Node binary and the checkout:
 * a Node or a clone under a private home cannot be run that way, and the test says so
 * instead of failing for a reason that has nothing to do with the bot.
 */
function nobodyCannotRunTheCli(): string | undefined {
  if (!isRoot) return undefined;
  try {
    execFileSync(
      process.execPath,
      ['-e', `require('fs').accessSync(${JSON.stringify(join(repo, 'src/main.ts'))})`],
      {
        uid: NOBODY,
        gid: NOBODY,
        stdio: 'ignore',
      },
    );
    return undefined;
  } catch {
    return `user nobody cannot run ${process.execPath} on ${repo}`;
  }
}
const precondition = nobodyCannotRunTheCli();
if (precondition) console.warn(`database-path tests skipped: ${precondition}`);

let folder = '';
function lockedFolder(): string {
  folder = join(backends.dir, 'volume');
  mkdirSync(folder, { recursive: true });
  // Root-owned 755 is unwritable for nobody; for a normal user, 555 is.
  chmodSync(folder, isRoot ? 0o755 : 0o555);
  chmodSync(backends.dir, 0o755);
  return folder;
}
afterAll(() => {
  if (folder) chmodSync(folder, 0o755);
});

/** The real CLI in a child process (asynchronously: the backends answer from this one). */
function cli(args: string[], databasePath: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/main.ts', ...args],
      {
        cwd: repo,
        env: {
          PATH: process.env['PATH'] ?? '',
          ...backends.env,
          DATABASE_PATH: databasePath,
          LOG_LEVEL: 'fatal',
        },
        encoding: 'utf8',
        timeout: 60_000,
        ...(isRoot ? { uid: NOBODY, gid: NOBODY } : {}),
      },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
        resolve({ code, out: `${stdout}${stderr}` });
      },
    );
  });
}

describe.skipIf(precondition !== undefined)('an unwritable DATABASE_PATH folder', () => {
  it('check says who the process runs as and who owns the folder, and creates nothing', async () => {
    const dir = lockedFolder();
    const path = join(dir, 'sub', 'visibility.db');
    const { code, out } = await cli(['check'], path);
    expect(code).toBe(1);
    expect(out).toContain(`✗ DATABASE_PATH=${path} does not exist and cannot be created.`);
    const uid = isRoot ? NOBODY : process.getuid?.();
    expect(out).toContain(`This process runs as uid ${uid}`);
    expect(out).toMatch(new RegExp(`${dir} is owned by uid \\d+, gid \\d+ \\(mode \\d+\\)`));
    expect(readdirSync(dir)).toEqual([]);
  });

  it('run-job stops at start-up with the path, the uid and what to do', async () => {
    const dir = lockedFolder();
    const path = join(dir, 'visibility.db');
    const { code, out } = await cli(['run-job', 'all'], path);
    expect(code).toBe(1);
    expect(out).toContain(`DATABASE_PATH=${path} cannot be opened (unable to open database file).`);
    expect(out).toContain(`This process runs as uid ${isRoot ? NOBODY : process.getuid?.()}`);
    expect(out).toContain(`Make ${dir} writable for that user`);
  });
});
