/**
 * What a verb's failure to start prints and its exit code, shared by run-cli.ts and
 * run-job-verb.ts (which loads its configuration itself, see there). The configuration's
 * error class is passed in, so this module loads neither the configuration nor zod.
 */

/** Exit code 2 for a configuration problem, 1 for Postgres; any other error is thrown again. */
export function exitCodeForStartFailure(
  err: unknown,
  configError: abstract new (...args: never[]) => Error,
): number {
  if (err instanceof configError) {
    console.error(`${err.message}\n\nSee README.md, "Configuration", for every variable.`);
    return 2;
  }
  // Postgres could not be reached or used (DATABASE_URL): one readable sentence that
  // names host, port and database, never the password.
  const code = (err as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && code.startsWith('pg_')) {
    console.error((err as Error).message);
    return 1;
  }
  throw err;
}
