/**
 * The few places where SQLite's SQL and Postgres's truly differ, so the repositories are
 * written once and branch only here: row locks, GREATEST/LEAST, JSON (how it is written
 * and how a part of it is read), and bytewise text order. Everything else (upserts with
 * ON CONFLICT … WHERE, RETURNING, window functions, NULLS FIRST) both accept as the query
 * builder writes it.
 */
import { type Expression, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';

export interface SqlDialect {
  readonly name: 'sqlite' | 'postgres';
  /**
   * SELECT … FOR UPDATE: the rows a read-then-write decides on are locked until the
   * transaction ends, so a concurrent replica decides on them as this one left them.
   * SQLite needs no lock: its transactions (BEGIN IMMEDIATE) already run one at a time.
   */
  lockRows<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O>;
  /** The same, skipping rows another transaction holds (the outbox claim); SQLite: as is. */
  lockRowsSkipLocked<DB, TB extends keyof DB, O>(
    query: SelectQueryBuilder<DB, TB, O>,
  ): SelectQueryBuilder<DB, TB, O>;
  greatest(a: Expression<number>, b: Expression<number>): RawBuilder<number>;
  least(a: Expression<number>, b: Expression<number>): RawBuilder<number>;
  /** `value` as JSON text for a JSON column (Postgres refuses NUL and lone surrogates there). */
  json(value: unknown): string;
  /** JSON text another module already wrote, as the JSON column takes it. */
  jsonText(text: string): string;
  /**
   * The part of a JSON column at `path` (keys, or indexes of arrays) as JSON text, or null
   * when absent: the caller parses it, so a number stays a number on both backends.
   */
  jsonAt(column: Expression<string>, path: readonly (string | number)[]): RawBuilder<string | null>;
  /**
   * A FROM item `e` whose column `value` is each element of a JSON array written by
   * `json`: many rows in one statement of one shape, however many there are.
   */
  jsonElements(json: string): RawBuilder<unknown>;
  /** Orders text by its bytes, as SQLite does, whatever the Postgres database's locale. */
  bytewise(text: Expression<string | null>): RawBuilder<string | null>;
  /** The whole database's size in bytes (SQLite: its pages; Postgres: pg_database_size). */
  databaseBytes(): RawBuilder<number | string>;
}

const sqlitePath = (path: readonly (string | number)[]) =>
  `$${path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${JSON.stringify(p)}`)).join('')}`;

export const sqliteDialect: SqlDialect = {
  name: 'sqlite',
  lockRows: (query) => query,
  lockRowsSkipLocked: (query) => query,
  // SQLite's MAX and MIN with two arguments are the scalar functions.
  greatest: (a, b) => sql<number>`MAX(${a}, ${b})`,
  least: (a, b) => sql<number>`MIN(${a}, ${b})`,
  json: (value) => JSON.stringify(value),
  jsonText: (text) => text,
  // `->` answers JSON text (SQLite 3.38+), as Postgres's `#>` with its pool reading jsonb as text.
  jsonAt: (column, path) => sql<string | null>`(${column} -> ${sqlitePath(path)})`,
  jsonElements: (json) => sql`json_each(${json}) AS e`,
  bytewise: (text) => sql<string | null>`${text}`,
  databaseBytes: () =>
    sql<number>`(SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size())`,
};
