/**
 * `visibility-bot check`: one line per check, ✓ or ✗, and exit 0 only when all pass.
 * It prints what works (the brands the key sees, the Slack team and bot user) and never a
 * secret: only hosts, names and Slack's error codes.
 */

import { isApiError } from '../api/errors.js';
import { type AppDepsOverrides, createAppDeps } from '../app-deps.js';
import type { Config } from '../config.js';
import { mrkdwnToTerminal } from '../demo/render/mrkdwn-to-terminal.js';
import { createStyle } from '../demo/render/style.js';
import { silentLogger } from '../logger.js';
import { selectReceiver } from '../slack/select-receiver.js';
import { userFacingError } from '../slack/user-facing-error.js';
import { openDatabase } from '../store/open-database.js';

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

class ProbeRollback extends Error {}

/** A real write inside a transaction that is rolled back: proves the file takes writes. */
function probeWritable(db: ReturnType<typeof openDatabase>): void {
  try {
    db.transaction(() => {
      db.prepare(
        "INSERT INTO audit_log (at_ms, user_id, action, result) VALUES (0, 'check', 'check', 'probe')",
      ).run();
      throw new ProbeRollback();
    })();
  } catch (err) {
    if (!(err instanceof ProbeRollback)) throw err;
  }
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
  // The database first: the API check needs the rate limiter, which lives in it. When the
  // file is unusable, an in-memory one still lets us tell whether the key works.
  let db = options.overrides?.db;
  if (!db) {
    try {
      db = openDatabase(config.databasePath);
      probeWritable(db);
      pass(`Database writable: ${config.databasePath}`);
    } catch (err) {
      fail(
        `Database ${config.databasePath} is not writable: ${err instanceof Error ? err.message : String(err)}`,
      );
      db?.close();
      db = openDatabase(':memory:');
    }
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
