/**
 * Every change the bot makes to a brand is recorded in the audit log with who, when, what
 * and how it went (`ok`, `refused: …`, `error: <code>`), whatever the outcome.
 */

import { isApiError } from '../api/errors.js';
import { UserError } from '../messages/user-error.js';
import type { SlackDeps } from './slack-deps.js';

export interface Actor {
  userId: string;
  channelId?: string | undefined;
}

export interface WriteRecord {
  brandId: string;
  /** A BRAND_WRITES phrase, e.g. `add markets` */
  action: string;
  detail?: Record<string, unknown>;
}

type AuditDeps = Pick<SlackDeps, 'auditLog' | 'clock'>;

function errorCode(err: unknown): string {
  if (isApiError(err)) return err.code;
  if (err instanceof UserError) return err.code;
  return 'unexpected';
}

export async function auditWrite(
  deps: AuditDeps,
  actor: Actor,
  write: WriteRecord,
  result: string,
): Promise<void> {
  await deps.auditLog.record({
    atMs: deps.clock.now(),
    userId: actor.userId,
    channelId: actor.channelId ?? null,
    brandId: write.brandId,
    action: write.action,
    ...(write.detail ? { detail: write.detail } : {}),
    result,
  });
}

/** Runs the request and records its outcome; the error is rethrown for the router to explain. */
export async function auditedWrite<T>(
  deps: AuditDeps,
  actor: Actor,
  write: WriteRecord,
  request: () => Promise<T>,
): Promise<T> {
  try {
    const result = await request();
    await auditWrite(deps, actor, write, 'ok');
    return result;
  } catch (err) {
    await auditWrite(deps, actor, write, `error: ${errorCode(err)}`);
    throw err;
  }
}

/** A write stopped before any request (viewer role, primary market, nothing to change). */
export async function refusedWrite(
  deps: AuditDeps,
  actor: Actor,
  write: WriteRecord,
  error: UserError,
): Promise<UserError> {
  await auditWrite(deps, actor, write, `refused: ${error.code}`);
  return error;
}
