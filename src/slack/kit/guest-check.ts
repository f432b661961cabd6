/**
 * Brand data is for workspace members: Slack guests (single- and multi-channel,
 * `is_ultra_restricted` / `is_restricted` on users.info) are refused. One users.info per
 * person per hour; a failed lookup is not cached, and refuses this once rather than let a
 * guest through on a Slack hiccup.
 */
import type { WebClient } from '@slack/web-api';
import type { Clock } from '../../clock.js';
import { mrkdwn } from '../../messages/mrkdwn.js';
import { UserError, UserErrorCode } from '../../messages/user-error.js';

const GUEST_CACHE_TTL_MS = 60 * 60 * 1000;

export type GuestCheck = (client: WebClient, userId: string) => Promise<void>;

export function createGuestCheck(clock: Clock, ttlMs = GUEST_CACHE_TTL_MS): GuestCheck {
  const cache = new Map<string, { guest: boolean; at: number }>();
  return async (client, userId) => {
    let entry = cache.get(userId);
    if (!entry || clock.now() - entry.at >= ttlMs) {
      let user: { is_restricted?: boolean; is_ultra_restricted?: boolean } | undefined;
      try {
        user = (await client.users.info({ user: userId })).user;
      } catch (err) {
        throw new UserError(
          UserErrorCode.GuestCheckFailed,
          mrkdwn`Slack did not confirm your account just now, so no brand data was shown. Try again in a moment.`,
          undefined,
          { cause: err },
        );
      }
      entry = { guest: Boolean(user?.is_restricted || user?.is_ultra_restricted), at: clock.now() };
      cache.set(userId, entry);
    }
    if (entry.guest) {
      throw new UserError(
        UserErrorCode.Guest,
        mrkdwn`Sorry — brand data is for workspace members, and guest accounts cannot use \`/visibility\`.`,
      );
    }
  };
}
