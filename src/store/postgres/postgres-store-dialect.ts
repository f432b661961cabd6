/**
 * The query builder (Kysely) on the Postgres pool, as the store needs it, and the SQL
 * pieces that differ from SQLite's (sql-dialect.ts).
 *
 * Postgres refuses NUL (U+0000) in text, where SQLite stores it. Text from the API, Slack
 * or users (brand names, URLs, error details) therefore goes through pgText before it is
 * sent: every string parameter of every statement, so one odd character cannot make a
 * write fail (and with it a job's whole transaction), and an id looked up matches the id
 * as it was written. JSON goes through pgJson, which also replaces the lone surrogates
 * jsonb refuses. And json and jsonb are read as their text, as SQLite has them.
 */
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient, sql } from 'kysely';
import type { Database, StoreDb } from '../database.js';
import type { SqlDialect } from '../sql-dialect.js';
import { jsonAsText, type PgClient, type PgPool } from './create-pool.js';
import { pgJson, pgJsonText, pgText } from './pg-text.js';

export const postgresDialect: SqlDialect = {
  name: 'postgres',
  lockRows: (query) => query.forUpdate(),
  lockRowsSkipLocked: (query) => query.forUpdate().skipLocked(),
  greatest: (a, b) => sql<number>`GREATEST(${a}, ${b})`,
  least: (a, b) => sql<number>`LEAST(${a}, ${b})`,
  json: pgJson,
  jsonText: pgJsonText,
  // jsonb at a path, read as its text (storePool below).
  jsonAt: (column, path) => sql<string | null>`(${column} #> ${path.map(String)}::text[])`,
  jsonElements: (json) => sql`jsonb_array_elements(${json}::jsonb) AS e(value)`,
  bytewise: (text) => sql<string | null>`${text} COLLATE "C"`,
  // bigint: read as text by the pool.
  databaseBytes: () => sql<string>`pg_database_size(current_database())`,
};

const clean = (value: unknown): unknown =>
  typeof value === 'string' ? pgText(value) : Array.isArray(value) ? value.map(clean) : value;

/**
 * The pool as the query builder sees it: each connection it takes runs its statements with
 * text parameters cleaned and JSON read as text. Other users of the pool (the rate budget)
 * keep pg's own reading. Kysely asks for nothing else of a pool or a client.
 */
function storePool(pool: PgPool): PostgresPool {
  // One view per pooled connection, so the builder recognises a connection it had before.
  const views = new WeakMap<PgClient, PostgresPoolClient>();
  const viewOf = (client: PgClient): PostgresPoolClient => {
    const view = {
      query: (text: string, values: readonly unknown[]) =>
        client.query({ text, values: values.map(clean), types: jsonAsText }),
      release: (err?: Error | boolean) => client.release(err),
      // Kysely cancels a statement by its backend's process id.
      processID: (client as PgClient & { processID?: number }).processID,
    } as unknown as PostgresPoolClient;
    views.set(client, view);
    return view;
  };
  return {
    async connect() {
      const client: PgClient = await pool.connect();
      return views.get(client) ?? viewOf(client);
    },
    end: () => pool.end(),
    options: pool.options,
  };
}

const builders = new WeakMap<PgPool, StoreDb>();

/** The query builder on `pool`: one per pool, shared by every store built on it. */
export function postgresStoreDb(pool: PgPool): StoreDb {
  let built = builders.get(pool);
  if (!built) {
    built = new Kysely<Database>({ dialect: new PostgresDialect({ pool: storePool(pool) }) });
    builders.set(pool, built);
  }
  return built;
}
