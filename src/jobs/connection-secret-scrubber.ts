/**
 * A database connection string's secrets cut out of what the job engine reports (errors,
 * warnings), before anything is logged or thrown on. The store's own Postgres errors do the
 * same for DATABASE_URL, behind the store layer this one may not import.
 */
import { cutSecrets, databaseUrlSecrets } from '../database-url-secrets.js';
import { REDACTED } from '../logger.js';

/**
 * Cuts the connection string's password (as written and percent-decoded) and the string
 * itself out of text. Short passwords too: the logger's own scrubbing skips those.
 */
export function connectionSecretScrubber(connectionString: string): (text: string) => string {
  const secrets = [connectionString, ...databaseUrlSecrets(connectionString)];
  return (text) => cutSecrets(text, secrets, REDACTED);
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
