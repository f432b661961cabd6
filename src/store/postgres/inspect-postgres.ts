/**
 * What `check` says about DATABASE_URL: whether Postgres answers, runs a supported major,
 * and how far its schema is migrated; when it does not, the sentence `serve` would stop
 * with. It changes nothing (no migration: `serve` and `run-job` migrate at start), and its
 * lines name host, port and database, never the password.
 */

import { migrations } from '../migrations/index.js';
import { createPool } from './create-pool.js';
import { sharedVersion } from './migrate-postgres.js';
import { checkServerVersion, describeDatabaseUrl, explainStartupFailure } from './postgres-errors.js';

interface PostgresVerdict {
  ok: boolean;
  line: string;
}

export async function inspectPostgres(url: string): Promise<PostgresVerdict> {
  const where = `Postgres at ${describeDatabaseUrl(url)}`;
  const pool = createPool(url, { max: 1, connectionTimeoutMillis: 5000 });
  try {
    const server = await pool.query<{ v: number }>("SELECT current_setting('server_version_num')::int AS v");
    checkServerVersion(server.rows[0]?.v ?? 0, url);
    const table = await pool.query<{ found: string | null }>(
      `SELECT to_regclass('schema_migrations') AS found`,
    );
    const recorded =
      table.rows[0]?.found == null
        ? []
        : (await pool.query<{ version: number; name: string }>('SELECT version, name FROM schema_migrations'))
            .rows;
    const versions = new Set(recorded.map(sharedVersion));
    const version = versions.size === 0 ? null : Math.max(...versions);
    const latest = migrations.length;
    const behind = migrations.some((m) => !versions.has(m.version));
    if (version === null)
      return { ok: true, line: `${where} answers; serve and run-job will create the tables` };
    if (version > latest)
      return {
        ok: false,
        line: `${where} has schema version ${version}, newer than this version of the bot knows (${latest}): run the newer bot, or restore a backup`,
      };
    return {
      ok: true,
      line: `${where} answers (schema version ${version}${behind ? `; serve and run-job will migrate it to ${latest}` : ''})`,
    };
  } catch (err) {
    return { ok: false, line: explainStartupFailure(err, url).message };
  } finally {
    await pool.end().catch(() => undefined);
  }
}
