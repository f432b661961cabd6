import { mrkdwn } from '../../messages/mrkdwn.js';
import { UserError, UserErrorCode } from '../../messages/user-error.js';

/** Our button values are JSON objects; anything else means a stale or foreign message. */
export function parseActionValue(value: string | undefined): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(value ?? '');
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      return parsed as Record<string, unknown>;
    }
  } catch {
    // fall through
  }
  throw new UserError(
    UserErrorCode.StaleAction,
    mrkdwn`That button is from an older message; run the command again.`,
  );
}
