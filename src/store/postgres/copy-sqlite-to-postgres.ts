/**
 * Copies every table of an SQLite database into an already migrated Postgres database, in
 * one Postgres transaction: either everything arrives or nothing does. The table list
 * comes from the SQLite schema itself, so a table added later is copied too, or refused
 * loudly when Postgres has no counterpart; values are converted by the Postgres column's
 * type as information_schema reports it (0/1 → boolean, JSON text → jsonb, INTEGER →
 * bigint), ids are kept and identity sequences moved past them.
 *
 * Text that Postgres refuses and SQLite kept (NUL, lone surrogates in JSON) is replaced the
 * way the Postgres repositories replace it (pg-text.ts), so one odd brand name from the API
 * cannot fail the move.
 */
import type { Db } from '../open-database.js';
import { type PgClient, type PgPool, withTransaction } from './create-pool.js';
import { pgJsonText, pgText } from './pg-text.js';

type StoreCopyErrorCode =
  /** Postgres already holds rows and `replace` was not asked for. */
  | 'copy_target_not_empty'
  /** A table or column of the SQLite file has no counterpart in Postgres. */
  | 'copy_schema_mismatch'
  /** A value cannot be converted to its Postgres column's type. */
  | 'copy_bad_value'
  /** Postgres did not end up with the rows SQLite has (checked before committing). */
  | 'copy_count_mismatch';

export class StoreCopyError extends Error {
  readonly code: StoreCopyErrorCode;
  /** For copy_target_not_empty: the tables that hold rows. */
  readonly tables: readonly string[];
  constructor(code: StoreCopyErrorCode, message: string, tables: readonly string[] = []) {
    super(message);
    this.name = 'StoreCopyError';
    this.code = code;
    this.tables = tables;
  }
}

export interface TableCopy {
  table: string;
  rows: number;
}

export interface CopyResult {
  /** Every copied table with its row count, by name. */
  tables: TableCopy[];
  /** Postgres tables SQLite does not have (left empty). */
  onlyInPostgres: string[];
  /** True when rows already in Postgres were removed first (`replace`). */
  replaced: boolean;
}

interface CopyOptions {
  /** Empty every Postgres table first instead of refusing when any holds rows. */
  replace?: boolean;
  /** How long to wait for another connection's lock on a table before giving up; default 10 s. */
  lockTimeoutMs?: number;
  /** Rows per INSERT (fewer when the table has many columns); default 500. */
  batchRows?: number;
}

/** Bookkeeping of the migration runner: never copied, never emptied. */
const MIGRATIONS_TABLE = 'schema_migrations';
/** Postgres' limit on parameters in one statement. */
const MAX_PARAMETERS = 65_535;

export interface PgColumn {
  name: string;
  /** information_schema data_type: 'bigint', 'boolean', 'jsonb', 'text', … */
  type: string;
  identity: boolean;
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

export async function copySqliteToPostgres(
  source: Db,
  pool: PgPool,
  options: CopyOptions = {},
): Promise<CopyResult> {
  const sqliteTables = listSqliteTables(source);
  return withTransaction(pool, async (client) => {
    const pgTables = await listPostgresTables(client);
    checkSchemas(source, sqliteTables, pgTables);
    const targets = [...pgTables.keys()].sort();
    // Locks first, then the emptiness check: a replica already running on this database
    // cannot slip a row in between. Readers still read; writers wait until the copy ends.
    await client.query(`SET LOCAL lock_timeout = ${Math.round(options.lockTimeoutMs ?? 10_000)}`);
    // A big table may take longer than the pool's per-statement limit for serving replicas.
    await client.query('SET LOCAL statement_timeout = 0');
    if (targets.length > 0) {
      await client.query(`LOCK TABLE ${targets.map(quote).join(', ')} IN EXCLUSIVE MODE`);
    }
    const holding = await tablesWithRows(client, targets);
    if (holding.length > 0 && !options.replace) {
      throw new StoreCopyError(
        'copy_target_not_empty',
        `The Postgres database already holds data (in ${holding.join(', ')}). Nothing was copied.`,
        holding,
      );
    }
    if (holding.length > 0) {
      await client.query(`TRUNCATE ${targets.map(quote).join(', ')} RESTART IDENTITY`);
    }

    // One read transaction on SQLite: every table is read from the same moment.
    source.exec('BEGIN');
    try {
      const tables: TableCopy[] = [];
      for (const table of sqliteTables) {
        const columns = pgTables.get(table) ?? [];
        await copyTable(source, client, table, columns, options.batchRows ?? 500);
        await moveIdentities(source, client, table, columns);
        const rows = Number(
          source
            .prepare<[], number>(`SELECT count(*) FROM ${quote(table)}`)
            .pluck()
            .get() ?? 0,
        );
        tables.push({ table, rows });
      }
      await checkCounts(client, tables);
      return {
        tables,
        onlyInPostgres: targets.filter((t) => !sqliteTables.includes(t)),
        replaced: holding.length > 0,
      };
    } finally {
      source.exec('COMMIT');
    }
  });
}

function listSqliteTables(db: Db): string[] {
  return db
    .prepare<[], string>(
      `SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
        ORDER BY name`,
    )
    .pluck()
    .all();
}

function sqliteColumns(db: Db, table: string): string[] {
  return db
    .prepare<[], { name: string }>(`PRAGMA table_info(${quote(table)})`)
    .all()
    .map((c) => c.name);
}

async function listPostgresTables(client: PgClient): Promise<Map<string, PgColumn[]>> {
  const { rows } = await client.query<{
    table_name: string;
    column_name: string;
    data_type: string;
    is_identity: string;
  }>(
    `SELECT c.table_name, c.column_name, c.data_type, c.is_identity
       FROM information_schema.columns c
       JOIN information_schema.tables t
         ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
        AND c.table_name <> $1
      ORDER BY c.table_name, c.ordinal_position`,
    [MIGRATIONS_TABLE],
  );
  const tables = new Map<string, PgColumn[]>();
  for (const r of rows) {
    const list = tables.get(r.table_name) ?? [];
    list.push({ name: r.column_name, type: r.data_type, identity: r.is_identity === 'YES' });
    tables.set(r.table_name, list);
  }
  return tables;
}

/** Every SQLite table and column must have a place in Postgres, or nothing is copied. */
function checkSchemas(db: Db, sqliteTables: readonly string[], pgTables: Map<string, PgColumn[]>): void {
  const problems: string[] = [];
  for (const table of sqliteTables) {
    const pgColumns = pgTables.get(table);
    if (!pgColumns) {
      problems.push(`table ${table} has no counterpart in Postgres`);
      continue;
    }
    const known = new Set(pgColumns.map((c) => c.name));
    const missing = sqliteColumns(db, table).filter((c) => !known.has(c));
    if (missing.length > 0) problems.push(`${table}.${missing.join(`, ${table}.`)} missing in Postgres`);
  }
  if (problems.length > 0) {
    throw new StoreCopyError(
      'copy_schema_mismatch',
      `The SQLite and Postgres schemas do not match (${problems.join('; ')}). Use the same version of the bot for both; nothing was copied.`,
    );
  }
}

async function tablesWithRows(client: PgClient, tables: readonly string[]): Promise<string[]> {
  if (tables.length === 0) return [];
  const { rows } = await client.query<{ name: string }>(
    tables
      .map((t, i) => `SELECT $${i + 1}::text AS name WHERE EXISTS (SELECT 1 FROM ${quote(t)})`)
      .join(' UNION ALL '),
    [...tables],
  );
  return rows.map((r) => r.name).sort();
}

async function copyTable(
  db: Db,
  client: PgClient,
  table: string,
  pgColumns: readonly PgColumn[],
  batchRows: number,
): Promise<number> {
  const byName = new Map(pgColumns.map((c) => [c.name, c]));
  const columns = sqliteColumns(db, table).map((name) => byName.get(name) as PgColumn);
  if (columns.length === 0) return 0;
  const perBatch = Math.max(1, Math.min(batchRows, Math.floor(MAX_PARAMETERS / columns.length)));
  const overriding = columns.some((c) => c.identity) ? ' OVERRIDING SYSTEM VALUE' : '';
  const head = `INSERT INTO ${quote(table)} (${columns.map((c) => quote(c.name)).join(', ')})${overriding} VALUES `;
  // Integers as BigInt: a value beyond 2^53 arrives exact instead of rounded.
  const select = db
    .prepare(`SELECT ${columns.map((c) => quote(c.name)).join(', ')} FROM ${quote(table)}`)
    .raw(true)
    .safeIntegers(true);

  let copied = 0;
  let values: unknown[] = [];
  let tuples: string[] = [];
  const flush = async () => {
    if (tuples.length === 0) return;
    await client.query(head + tuples.join(', '), values);
    copied += tuples.length;
    values = [];
    tuples = [];
  };
  for (const row of select.iterate() as Iterable<unknown[]>) {
    const placeholders = columns.map((column, i) => {
      values.push(toPostgres(row[i], column, table));
      return `$${values.length}`;
    });
    tuples.push(`(${placeholders.join(', ')})`);
    if (tuples.length >= perBatch) await flush();
  }
  await flush();
  return copied;
}

/** One SQLite value as the Postgres column of `column.type` takes it (pg sends strings as text). */
export function toPostgres(value: unknown, column: PgColumn, table: string): unknown {
  if (value === null || value === undefined) return null;
  const bad = (why: string) =>
    new StoreCopyError('copy_bad_value', `${table}.${column.name}: ${why}; nothing was copied.`);
  switch (column.type) {
    case 'boolean':
      if (typeof value === 'bigint' || typeof value === 'number') return Number(value) !== 0;
      throw bad(`expected 0 or 1, found ${typeof value}`);
    case 'json':
    case 'jsonb': {
      if (typeof value === 'bigint' || typeof value === 'number') return String(value);
      if (typeof value !== 'string') throw bad(`expected JSON text, found ${typeof value}`);
      try {
        JSON.parse(value);
      } catch {
        throw bad('a row holds text that is not valid JSON');
      }
      return pgJsonText(value);
    }
    case 'bigint':
    case 'integer':
    case 'smallint':
      if (typeof value === 'bigint') return value.toString();
      if (typeof value === 'number' && Number.isInteger(value)) return String(value);
      if (typeof value === 'string' && /^-?\d+$/.test(value.trim())) return value.trim();
      throw bad(`expected a whole number, found ${typeof value === 'number' ? value : typeof value}`);
    case 'double precision':
    case 'real':
    case 'numeric':
      if (typeof value === 'bigint') return Number(value);
      if (typeof value === 'number') return value;
      throw bad(`expected a number, found ${typeof value}`);
    default:
      if (typeof value === 'string') return pgText(value);
      if (typeof value === 'bigint' || typeof value === 'number') return String(value);
      throw bad(
        `cannot store a ${value instanceof Uint8Array ? 'binary value' : typeof value} as ${column.type}`,
      );
  }
}

/**
 * Moves each identity column's sequence past the highest id copied, and past the highest id
 * SQLite ever handed out (AUTOINCREMENT remembers ids of deleted rows in sqlite_sequence),
 * so a new row never takes an id an old one had: a log line or a Slack message may name it.
 */
async function moveIdentities(db: Db, client: PgClient, table: string, columns: readonly PgColumn[]) {
  const identities = columns.filter((c) => c.identity);
  if (identities.length === 0) return;
  // sqlite_sequence exists only once a table with AUTOINCREMENT was created.
  const hasSequences =
    db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'sqlite_sequence'").get() !==
    undefined;
  const sqliteSequence = hasSequences
    ? db
        .prepare<[string], bigint>('SELECT seq FROM sqlite_sequence WHERE name = ?')
        .pluck()
        .safeIntegers(true)
        .get(table)
    : undefined;
  for (const column of identities) {
    await client.query(
      `SELECT setval(pg_get_serial_sequence($1, $2), m, true)
         FROM (SELECT GREATEST(MAX(${quote(column.name)}), $3::bigint) AS m FROM ${quote(table)}) AS top
        WHERE m IS NOT NULL AND m > 0`,
      [quote(table), column.name, sqliteSequence === undefined ? null : sqliteSequence.toString()],
    );
  }
}

/** Postgres holds exactly the rows SQLite has, table by table, or the transaction rolls back. */
async function checkCounts(client: PgClient, tables: readonly TableCopy[]): Promise<void> {
  const wrong: string[] = [];
  for (const { table, rows } of tables) {
    const { rows: got } = await client.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM ${quote(table)}`,
    );
    if (Number(got[0]?.n) !== rows) wrong.push(`${table}: ${rows} read, ${got[0]?.n} in Postgres`);
  }
  if (wrong.length > 0) {
    throw new StoreCopyError(
      'copy_count_mismatch',
      `Postgres does not hold what SQLite has (${wrong.join('; ')}); nothing was copied.`,
    );
  }
}
