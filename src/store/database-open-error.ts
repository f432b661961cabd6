/**
 * Why DATABASE_PATH cannot be used, in words an operator can act on: the variable, the
 * path, and what to do. SQLite's own messages ("file is not a database", "unable to open
 * database file") name neither, and the second hides the usual cause: a volume owned by
 * another user than the one the process runs as (a container running as an unprivileged
 * user on a root-owned volume).
 */
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

type DatabaseOpenErrorCode = 'db_not_a_database' | 'db_cannot_open' | 'db_read_only' | 'db_open_failed';

export class DatabaseOpenError extends Error {
  readonly code: DatabaseOpenErrorCode;
  constructor(code: DatabaseOpenErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DatabaseOpenError';
    this.code = code;
  }
}

/** The nearest folder on the way to `path` that exists (the one a create would write into). */
export function nearestExistingFolder(path: string): string {
  let dir = dirname(resolve(path));
  for (;;) {
    try {
      if (statSync(dir).isDirectory()) return dir;
    } catch {
      // Missing: look one level up.
    }
    const up = dirname(dir);
    if (up === dir) return dir;
    dir = up;
  }
}

/** "uid 1000, gid 1000" of this process, or a plain phrase where Node has no uids (Windows). */
function processIdentity(): string {
  return typeof process.getuid === 'function' && typeof process.getgid === 'function'
    ? `uid ${process.getuid()}, gid ${process.getgid()}`
    : 'the current user';
}

/** "/app/data is owned by uid 0, gid 0 (mode 755)". */
function ownership(path: string): string {
  try {
    const s = statSync(path);
    return `${path} is owned by uid ${s.uid}, gid ${s.gid} (mode ${(s.mode & 0o777).toString(8)})`;
  } catch {
    return `${path} cannot be inspected`;
  }
}

/** What to tell the operator when the path's folder or file does not take writes. */
export function notWritableAdvice(path: string): string {
  const folder = nearestExistingFolder(path);
  return (
    `This process runs as ${processIdentity()}; ${ownership(folder)}. ` +
    `Make ${folder} writable for that user (e.g. chown it to that uid), or set DATABASE_PATH to a writable location.`
  );
}

export function databaseOpenError(path: string, err: unknown): DatabaseOpenError {
  const code = (err as { code?: unknown } | undefined)?.code;
  const reason = err instanceof Error ? err.message : String(err);
  const where = `DATABASE_PATH=${path}`;
  if (code === 'SQLITE_NOTADB') {
    return new DatabaseOpenError(
      'db_not_a_database',
      `${where} is not an SQLite database (${reason}). Point DATABASE_PATH at the bot's database file, or move this file away so the bot creates a new one there.`,
      { cause: err },
    );
  }
  if (code === 'SQLITE_CANTOPEN' || code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return new DatabaseOpenError(
      'db_cannot_open',
      `${where} cannot be opened (${reason}). ${notWritableAdvice(path)}`,
      { cause: err },
    );
  }
  if (typeof code === 'string' && code.startsWith('SQLITE_READONLY')) {
    return new DatabaseOpenError(
      'db_read_only',
      `${where} is read-only (${reason}). This process runs as ${processIdentity()}; ${ownership(resolve(path))}. Make the file and its folder writable for that user.`,
      { cause: err },
    );
  }
  return new DatabaseOpenError('db_open_failed', `${where} cannot be used: ${reason}`, { cause: err });
}
