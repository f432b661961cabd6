/**
 * `visibility-bot check`: one line per check, ✓ or ✗, and exit 0 only when all pass.
 * It prints what works (the brands the key sees, the Slack team and bot user) and never a
 * secret: only hosts, names and Slack's error codes. It changes nothing: the database is
 * inspected, never created or migrated.
 */
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { isApiError } from '../api/errors.js';
import { type AppDepsOverrides, createAppDeps } from '../app-deps.js';
import type { Config } from '../config.js';
import { silentLogger } from '../logger.js';
import { userFacingError } from '../messages/user-facing-error.js';
import { selectReceiver } from '../slack/select-receiver.js';
import { databaseOpenError, nearestExistingFolder, notWritableAdvice } from '../store/database-open-error.js';
import { migrations } from '../store/migrations/index.js';
import { openDatabase } from '../store/open-database.js';
import { mrkdwnToTerminal } from '../terminal/mrkdwn-to-terminal.js';
import { createStyle } from '../terminal/style.js';

/** Check lines go to a terminal or a log: no colours. */
const PLAIN = createStyle(false);

export interface CheckOptions {
  out?: (line: string) => void;
  overrides?: AppDepsOverrides;
}

const host = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return 'an invalid URL';
  }
};

interface DatabaseVerdict {
  ok: boolean;
  line: string;
}

/**
 * What serve would find at DATABASE_PATH, without changing anything there: an existing
 * file is opened read-only (is it a database, at which schema version) and its folder's
 * and its own writability are asked of the file system; a missing one is not created, the
 * nearest existing folder is asked whether it would take it.
 */
function inspectDatabase(path: string): DatabaseVerdict {
  if (path === ':memory:') return { ok: true, line: 'Database: in memory (nothing is kept between runs)' };
  const where = `DATABASE_PATH=${path}`;
  if (!existsSync(path)) {
    const folder = nearestExistingFolder(path);
    const parent = dirname(resolve(path));
    try {
      accessSync(folder, constants.W_OK);
    } catch {
      return { ok: false, line: `${where} does not exist and cannot be created. ${notWritableAdvice(path)}` };
    }
    return {
      ok: true,
      line: `Database ${path} does not exist yet: serve and run-job will create it${folder === parent ? '' : ` (and the missing folders below ${folder})`}; ${folder} is writable`,
    };
  }
  if (statSync(path).isDirectory()) {
    return {
      ok: false,
      line: `${where} is a folder: set it to a file path inside it, e.g. ${join(path, 'visibility.db')}`,
    };
  }
  let version: number;
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      version = db.pragma('user_version', { simple: true }) as number;
      db.prepare('SELECT count(*) FROM sqlite_master').get();
    } finally {
      db.close();
    }
  } catch (err) {
    return { ok: false, line: databaseOpenError(path, err).message };
  }
  try {
    // WAL keeps two files beside the database: the folder must take writes too.
    accessSync(path, constants.R_OK | constants.W_OK);
    accessSync(dirname(resolve(path)), constants.W_OK);
  } catch {
    return { ok: false, line: `${where} is not writable. ${notWritableAdvice(path)}` };
  }
  const latest = migrations.length;
  return {
    ok: true,
    line: `Database writable: ${path} (schema version ${version}${version < latest ? `; serve and run-job will migrate it to ${latest}` : ''})`,
  };
}

export async function runCheck(config: Config, options: CheckOptions = {}): Promise<number> {
  const out = options.out ?? ((line: string) => console.log(line));
  let failed = 0;
  const pass = (line: string) => out(`✓ ${line}`);
  const fail = (line: string) => {
    failed += 1;
    out(`✗ ${line}`);
  };

  let mode = 'no Slack receiver';
  try {
    mode = selectReceiver(config).mode === 'socket' ? 'Socket Mode' : 'HTTP mode';
  } catch {
    // check does not need a receiver; serve does, and says so.
  }
  pass(
    `Configuration valid: ${mode}, API ${host(config.apiUrl)} (plan ${config.apiPlan}), Slack ${host(config.slackApiUrl)}`,
  );

  // check prints its own lines; the clients' logs would only repeat them (hence silentLogger).
  // check changes nothing at DATABASE_PATH: it only inspects it. The API check's rate
  // limiter keeps its bucket in a database, here a throw-away one in memory.
  let db = options.overrides?.db;
  if (!db) {
    const verdict = config.databaseUrl
      ? await (await import('../store/postgres/inspect-postgres.js')).inspectPostgres(config.databaseUrl)
      : inspectDatabase(config.databasePath);
    if (verdict.ok) pass(verdict.line);
    else fail(verdict.line);
    db = openDatabase(':memory:');
  }
  const deps = createAppDeps(config, {
    ...options.overrides,
    db,
    logger: options.overrides?.logger ?? silentLogger(),
  });

  try {
    const { brands } = await deps.api.getBrands({}, { lane: 'interactive' });
    const names = brands.slice(0, 5).map((b) => `"${b.name}"`);
    pass(
      `API key works: it sees ${brands.length} brand${brands.length === 1 ? '' : 's'}${names.length ? `: ${names.join(', ')}${brands.length > 5 ? ', …' : ''}` : ''}`,
    );
  } catch (err) {
    const why = mrkdwnToTerminal(userFacingError(err).message, PLAIN);
    fail(
      `Brand Visibility API at ${host(config.apiUrl)}: ${why}${isApiError(err) && err.status ? ` (HTTP ${err.status})` : ''}`,
    );
  }

  try {
    const auth = await deps.web.auth.test();
    pass(
      `Slack auth.test: team "${auth.team ?? '?'}" (${auth.team_id ?? '?'}), bot user @${auth.user ?? '?'} (${auth.user_id ?? '?'})`,
    );
  } catch (err) {
    const code = (err as { data?: { error?: unknown } }).data?.error;
    fail(
      `Slack auth.test at ${host(config.slackApiUrl)} failed: ${typeof code === 'string' ? code : err instanceof Error ? err.message : String(err)}`,
    );
  }

  await deps.close();
  if (!options.overrides?.db) db.close();
  out(failed === 0 ? 'All checks passed.' : `${failed} check${failed === 1 ? '' : 's'} failed.`);
  return failed === 0 ? 0 : 1;
}
