/**
 * SLACK_ADMIN_USERS decides who may change brands and subscriptions (empty = everyone).
 * A refusal is audited like any other write attempt.
 */

import { escapeMrkdwn, joinMrkdwn, mrkdwn, userMention } from '../../messages/mrkdwn.js';
import { UserError, UserErrorCode } from '../../messages/user-error.js';
import type { SlackDeps } from './slack-deps.js';

export async function requireWriter(
  deps: Pick<SlackDeps, 'config' | 'auditLog' | 'clock'>,
  who: { userId: string; channelId?: string | undefined },
  action: string,
): Promise<void> {
  const admins = deps.config.adminUsers;
  if (admins.length === 0 || admins.includes(who.userId)) return;
  await deps.auditLog.record({
    atMs: deps.clock.now(),
    userId: who.userId,
    channelId: who.channelId ?? null,
    action,
    result: 'refused: not an admin',
  });
  const list = joinMrkdwn(admins.slice(0, 5).map(userMention), mrkdwn`, `);
  throw new UserError(
    UserErrorCode.NotAllowed,
    mrkdwn`Only the bot's admins can ${escapeMrkdwn(action)}. Ask ${list}${admins.length > 5 ? mrkdwn`, …` : mrkdwn``}.`,
  );
}
