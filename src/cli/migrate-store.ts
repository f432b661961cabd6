/**
 * `visibility-bot migrate-store [--replace]`: moves a bot that ran on SQLite to Postgres
 * (README "Running more than one replica"). Reads DATABASE_PATH without changing it,
 * brings the Postgres database in DATABASE_URL to this version's schema, copies every
 * table in one transaction, and prints what it copied. Postgres that already holds data is
 * left alone unless `--replace` is given.
 *
 * Every `serve` and `run-job` on the SQLite file must be stopped first: what they write
 * after the copy starts stays in SQLite. The command says so; it cannot tell a running
 * process from one that stopped without closing the file.
 *
 * Exit codes: 0 copied, 1 refused or failed (nothing written), 2 usage.
 */
import type { Config } from '../config.js';
import { openSqliteSource, type SqliteSource } from '../store/open-sqlite-source.js';
import {
  type CopyResult,
  copySqliteToPostgres,
  StoreCopyError,
} from '../store/postgres/copy-sqlite-to-postgres.js';
import type { PgPool } from '../store/postgres/create-pool.js';
import { openPostgres } from '../store/postgres/open-postgres.js';
import { describeDatabaseUrl, withoutPassword } from '../store/postgres/postgres-errors.js';

export const MIGRATE_STORE_USAGE = 'Usage: visibility-bot migrate-store [--replace]';

const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

interface MigrateStoreOptions {
  out?: (line: string) => void;
  err?: (line: string) => void;
  /** How long to wait for a replica's lock on a Postgres table; default 10 s. */
  lockTimeoutMs?: number;
}

/** What each table holds, for the summary (a table without a line here is shown by name). */
const TABLE_MEANING: Readonly<Record<string, string>> = {
  subscriptions: 'channel subscriptions',
  snoozes: 'snoozed alert kinds',
  channel_defaults: 'channel default brands',
  citation_state: 'brands with citation history',
  citation_state_changes: 'recent citation changes',
  detector_snapshots: 'crawler and AI Pages alert states',
  poll_observations: 'latest poll results',
  outbox: 'Slack messages (sent, waiting or held)',
  job_runs: 'job runs',
  job_brand_success: 'last successful job per brand',
  job_leases: 'job locks',
  health_flags: 'bot health notices',
  audit_log: 'audit log entries',
  handled_requests: 'recent Slack requests',
  rate_buckets: 'API rate budget',
  rate_scope_pauses: 'API pauses after a rate limit',
  rate_sends: 'recent API calls',
  rate_daily_usage: 'daily API call counts',
};

/** What the reader should know about the SQLite file before the copy. */
function sourceNotes(source: SqliteSource, databasePath: string): string[] {
  const notes: string[] = [];
  if (source.walInUse) {
    notes.push(
      `Note: ${databasePath}-wal is not empty, so a process may still have the file open. If serve or run-job is running, stop it and run this again with --replace.`,
    );
  }
  if (source.migratedCopy) {
    notes.push(
      `The file has schema version ${source.fileVersion}, from an older version of the bot: it is brought up to date in memory for the copy; the file stays as it is.`,
    );
  }
  return notes;
}

/** A failed copy in words, with what to do next (the password is taken out by the caller). */
function failureText(e: unknown, where: string): string {
  if (e instanceof StoreCopyError && e.code === 'copy_target_not_empty') {
    return `${e.message}\nIf this is a database the bot already runs on, you do not need this command. To overwrite it with the SQLite data (everything in it is deleted), stop every replica and run: visibility-bot migrate-store --replace`;
  }
  // lock_not_available: a replica holds one of the tables (lock_timeout ran out).
  if ((e as { code?: unknown } | undefined)?.code === '55P03') {
    return `Another connection is using the Postgres database (a running replica?): its tables stayed locked. Nothing was copied. Stop every serve and run-job on ${where}, then run migrate-store again.`;
  }
  const message = e instanceof Error ? e.message : String(e);
  return e instanceof StoreCopyError ? message : `migrate-store failed, nothing was copied: ${message}`;
}

export async function runMigrateStore(
  args: readonly string[],
  config: Pick<Config, 'databasePath' | 'databaseUrl'>,
  options: MigrateStoreOptions = {},
): Promise<number> {
  const out = options.out ?? ((line: string) => console.log(line));
  const err = options.err ?? ((line: string) => console.error(line));
  const replace = args.includes('--replace');
  const unknown = args.filter((a) => a !== '--replace');
  if (unknown.length > 0) {
    err(`Unknown argument "${unknown[0]}".\n${MIGRATE_STORE_USAGE}`);
    return EXIT.usage;
  }
  const url = config.databaseUrl;
  if (!url) {
    err(
      'DATABASE_URL is not set: set it to the Postgres database to copy into, e.g. postgres://bot:PASSWORD@db.example.com:5432/visibility.',
    );
    return EXIT.usage;
  }
  const where = describeDatabaseUrl(url);
  // Anything that reaches the terminal loses the password first, whatever produced it.
  const fail = (message: string) => {
    err(withoutPassword(message, url));
    return EXIT.failed;
  };

  let source: SqliteSource;
  try {
    source = openSqliteSource(config.databasePath);
  } catch (e) {
    return fail(e instanceof Error ? e.message : String(e));
  }
  let pool: PgPool | undefined;
  try {
    out(`Copying the SQLite database ${config.databasePath} into Postgres at ${where}.`);
    out(
      'The SQLite file is only read, never changed. Stop every serve and run-job that uses it before copying: what they write after the copy starts is not copied.',
    );
    for (const line of sourceNotes(source, config.databasePath)) out(line);
    const opened = await openPostgres(url, { max: 1, applicationName: 'visibility-bot migrate-store' });
    pool = opened.pool;
    const result = await copySqliteToPostgres(source.db, pool, {
      replace,
      ...(options.lockTimeoutMs === undefined ? {} : { lockTimeoutMs: options.lockTimeoutMs }),
    });
    for (const line of summary(result)) out(line);
    out(
      'Done. Set DATABASE_URL for serve and run-job (and leave DATABASE_PATH unused); keep the SQLite file until the bot runs well on Postgres.',
    );
    return EXIT.ok;
  } catch (e) {
    return fail(failureText(e, where));
  } finally {
    source.close();
    await pool?.end();
  }
}

function summary(result: CopyResult): string[] {
  const total = result.tables.reduce((n, t) => n + t.rows, 0);
  const width = Math.max(...result.tables.map((t) => t.table.length), 5);
  const digits = total.toLocaleString('en-US').length;
  const lines = [result.replaced ? 'Copied (the rows Postgres held before were deleted):' : 'Copied:'];
  for (const { table, rows } of result.tables) {
    const meaning = TABLE_MEANING[table];
    lines.push(
      `  ${table.padEnd(width)}  ${rows.toLocaleString('en-US').padStart(digits)}${meaning ? `  ${meaning}` : ''}`,
    );
  }
  lines.push(
    `  ${'total'.padEnd(width)}  ${total.toLocaleString('en-US').padStart(digits)}  rows in ${result.tables.length} tables`,
  );
  if (result.onlyInPostgres.length > 0) {
    lines.push(`Only in Postgres, left empty: ${result.onlyInPostgres.join(', ')}.`);
  }
  return lines;
}
