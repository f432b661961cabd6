/**
 * `visibility-bot check`: one line per part of the setup, ✓ when it works, ✗ when it does
 * not (with the cause in words), – when it is not configured (with what to set): the
 * database, the Brand Visibility API, Slack. Each part that is configured is checked, so
 * the API key can be checked before Slack is set up. Exit code 0 when nothing checked
 * failed, 1 when something did. It prints what works (the brands the key sees, the Slack
 * team and bot user) and never a secret. It changes nothing: the database is inspected,
 * never created or migrated.
 */
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { type AppDepsOverrides, createAppDeps } from '../app-deps.js';
import type { Config, SetupPart } from '../config.js';
import { silentLogger } from '../logger.js';
import { selectReceiver } from '../slack/select-receiver.js';
import { databaseOpenError, nearestExistingFolder, notWritableAdvice } from '../store/database-open-error.js';
import { migrations } from '../store/migrations/index.js';
import { type Db, openDatabase } from '../store/open-database.js';
import { checkApi, checkSlack, hostOf, type Verdict } from './check-services.js';

interface CheckOptions {
  out?: (line: string) => void;
  overrides?: AppDepsOverrides;
}

/**
 * What serve would find at DATABASE_PATH, without changing anything there: an existing
 * file is opened read-only (is it a database, at which schema version) and its folder's
 * and its own writability are asked of the file system; a missing one is not created, the
 * nearest existing folder is asked whether it would take it.
 */
function inspectDatabase(path: string): Verdict {
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

/** What the configuration line says: the parts configured, with their hosts. */
function configurationLine(config: Config): string {
  const parts: string[] = [];
  if (!config.notConfigured.slack) {
    let mode = 'no Slack receiver';
    try {
      mode = selectReceiver(config).mode === 'socket' ? 'Socket Mode' : 'HTTP mode';
    } catch {
      // check does not need a receiver; serve does, and says so.
    }
    parts.push(mode);
  }
  if (!config.notConfigured.api) parts.push(`API ${hostOf(config.apiUrl)} (plan ${config.apiPlan})`);
  if (!config.notConfigured.slack) parts.push(`Slack ${hostOf(config.slackApiUrl)}`);
  return `Configuration valid${parts.length ? `: ${parts.join(', ')}` : ''}`;
}

const PART_NAMES: Record<SetupPart, string> = { api: 'Brand Visibility API', slack: 'Slack' };

/** The database line: Postgres when DATABASE_URL is set, else the SQLite file. */
async function databaseVerdict(config: Config): Promise<Verdict> {
  if (!config.databaseUrl) return inspectDatabase(config.databasePath);
  const { inspectPostgres } = await import('../store/postgres/inspect-postgres.js');
  return inspectPostgres(config.databaseUrl);
}

function summaryLine(failed: number, notChecked: readonly SetupPart[]): string {
  const skipped = notChecked.map((p) => PART_NAMES[p]).join(' and ');
  const unchecked = skipped
    ? `${skipped} not checked (not configured yet: serve and run-job need ${notChecked.length === 1 ? 'it' : 'them'}).`
    : '';
  if (failed > 0)
    return `${failed} check${failed === 1 ? '' : 's'} failed.${unchecked ? ` ${unchecked}` : ''}`;
  return unchecked ? `Everything checked works. ${unchecked}` : 'All checks passed.';
}

export async function runCheck(config: Config, options: CheckOptions = {}): Promise<number> {
  const out = options.out ?? ((line: string) => console.log(line));
  let failed = 0;
  const report = (v: Verdict) => {
    if (!v.ok) failed += 1;
    out(`${v.ok ? '✓' : '✗'} ${v.line}`);
  };
  report({ ok: true, line: configurationLine(config) });

  // check changes nothing at DATABASE_PATH: it only inspects it. The API check's rate
  // limiter keeps its bucket in a database, here a throw-away one in memory.
  let db: Db | undefined = options.overrides?.db;
  if (!db) {
    report(await databaseVerdict(config));
    db = openDatabase(':memory:');
  }
  // check prints its own lines; the clients' logs would only repeat them (hence silentLogger).
  const deps = createAppDeps(config, {
    ...options.overrides,
    db,
    logger: options.overrides?.logger ?? silentLogger(),
  });

  const notChecked: SetupPart[] = [];
  const part = async (name: SetupPart, run: () => Promise<Verdict>) => {
    const missing = config.notConfigured[name];
    if (!missing) return report(await run());
    notChecked.push(name);
    out(`– ${PART_NAMES[name]} not checked: ${missing.join(' ')}`);
  };
  await part('api', () => checkApi(deps.api, config.apiUrl));
  await part('slack', () => checkSlack(deps.web, config.slackApiUrl));

  await deps.close();
  if (!options.overrides?.db) db.close();
  out(summaryLine(failed, notChecked));
  return failed === 0 ? 0 : 1;
}
