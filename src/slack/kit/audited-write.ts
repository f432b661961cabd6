/**
 * Every change the bot makes to a brand is recorded in the audit log with who, when, what
 * and how it went (`ok`, `refused: …`, `error: <code>`), whatever the outcome.
 */

import { isApiError } from '../../api/errors.js';
import { UserError } from '../../messages/user-error.js';
import type { AuditEntry } from '../../store/audit-log.js';
import { isDatabaseUnavailable } from '../../store/database-unavailable.js';
import type { SlackDeps } from './slack-deps.js';

export interface Actor {
  userId: string;
  channelId?: string | undefined;
}

interface WriteRecord {
  brandId: string;
  /** A BRAND_WRITES phrase, e.g. `add markets` */
  action: string;
  detail?: Record<string, unknown>;
}

type AuditDeps = Pick<SlackDeps, 'auditLog' | 'clock' | 'database' | 'logger'>;

function errorCode(err: unknown): string {
  if (isApiError(err)) return err.code;
  if (err instanceof UserError) return err.code;
  return 'unexpected';
}

function entryOf(
  deps: Pick<AuditDeps, 'clock'>,
  actor: Actor,
  write: WriteRecord,
  result: string,
): AuditEntry {
  return {
    atMs: deps.clock.now(),
    userId: actor.userId,
    channelId: actor.channelId ?? null,
    brandId: write.brandId,
    action: write.action,
    ...(write.detail ? { detail: write.detail } : {}),
    result,
  };
}

async function auditWrite(
  deps: Pick<AuditDeps, 'auditLog' | 'clock'>,
  actor: Actor,
  write: WriteRecord,
  result: string,
): Promise<void> {
  await deps.auditLog.record(entryOf(deps, actor, write, result));
}

/**
 * The entry of a change the service already made: the database going down in between
 * must not turn a change that happened into "nothing was changed". It is kept and written
 * as soon as the database answers again, and logged meanwhile (the log line is the
 * record should the process stop first).
 */
async function recordMade(deps: AuditDeps, entry: AuditEntry): Promise<void> {
  try {
    await deps.auditLog.record(entry);
  } catch (err) {
    if (!isDatabaseUnavailable(err)) throw err;
    deps.logger.warn(
      { audit: entry, code: 'audit_entry_owed' },
      'a change was made while the database stopped answering: its audit entry is written when it answers again',
    );
    deps.database.owe('an audit entry', () => deps.auditLog.record(entry));
  }
}

/**
 * Runs the request and records its outcome; the error is rethrown for the router to
 * explain. Nothing is sent while the database cannot be used: no change without its
 * audit entry, and the user is told that nothing was changed.
 */
export async function auditedWrite<T>(
  deps: AuditDeps,
  actor: Actor,
  write: WriteRecord,
  request: () => Promise<T>,
): Promise<T> {
  await deps.database.available();
  let result: T;
  try {
    result = await request();
  } catch (err) {
    await recordMade(deps, entryOf(deps, actor, write, `error: ${errorCode(err)}`));
    throw err;
  }
  await recordMade(deps, entryOf(deps, actor, write, 'ok'));
  return result;
}

/** A write stopped before any request (viewer role, primary market, nothing to change). */
export async function refusedWrite(
  deps: Pick<AuditDeps, 'auditLog' | 'clock'>,
  actor: Actor,
  write: WriteRecord,
  error: UserError,
): Promise<UserError> {
  await auditWrite(deps, actor, write, `refused: ${error.code}`);
  return error;
}
