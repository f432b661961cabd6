/**
 * A database connection string's secrets cut out of what the job engine reports (errors,
 * warnings), before anything is logged or thrown on. The store's own Postgres errors do the
 * same for DATABASE_URL, behind the store layer this one may not import.
 */
import { REDACTED } from '../logger.js';

/**
 * Cuts the connection string's password (as written and percent-decoded) and the string
 * itself out of text. Short passwords too: the logger's own scrubbing skips those.
 */
export function connectionSecretScrubber(connectionString: string): (text: string) => string {
  const secrets = new Set<string>([connectionString]);
  try {
    const written = new URL(connectionString).password;
    if (written) {
      secrets.add(written);
      try {
        secrets.add(decodeURIComponent(written));
      } catch {
        // Malformed escapes: the password is only known as written.
      }
    }
  } catch {
    // Not a URL (pg also takes key=value strings): only the whole string is known.
  }
  // Longest first, so the URL goes whole before its password is cut out of it.
  const ordered = [...secrets].filter((s) => s.length > 0).sort((a, b) => b.length - a.length);
  return (text) => ordered.reduce((out, s) => out.split(s).join(REDACTED), text);
}

/**
 * pg-boss emits Errors and plain objects spread from them: either way a new Error with the
 * message and stack scrubbed, and the code kept, so nothing unscrubbed reaches the log.
 */
export function scrubbedError(err: unknown, scrub: (text: string) => string): Error & { code?: string } {
  const source = (typeof err === 'object' && err !== null ? err : { message: String(err) }) as {
    message?: unknown;
    stack?: unknown;
    code?: unknown;
  };
  const out: Error & { code?: string } = new Error(scrub(String(source.message ?? 'unknown error')));
  out.stack = typeof source.stack === 'string' ? scrub(source.stack) : '';
  if (typeof source.code === 'string') out.code = source.code;
  return out;
}
