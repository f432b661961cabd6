/**
 * `mute <brand> <duration>`: hold this channel's alerts for a brand for a while (30m, 2h,
 * 1d, 1w, 1h30m; at most 30 days). Held, not dropped: when the mute ends they arrive
 * together, one message. The digest is not muted. Admins only when SLACK_ADMIN_USERS is
 * set; audited.
 */
import { formatDuration, parseDuration } from '../../../alerts/parse-duration.js';
import { escapeMrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import { textReply } from '../../../messages/reply.js';
import { slackDate } from '../../../messages/user-facing-error.js';
import { createSubscriptionsRepo } from '../../../store/subscriptions-repo.js';
import type { Subcommand } from '../../commands/subcommand.js';
import { brandName } from '../../views/brand-name.js';
import { resolveSubscribedBrand } from './resolve-subscribed-brand.js';
import { SUBSCRIPTION_WRITES } from './subscription-writes.js';
import { commandFor } from './subscriptions-view.js';

/** `1h 30m` arrives as two tokens; the duration is every trailing number-and-unit token. */
const DURATION_TOKEN = /^\d+[a-z]*$/i;

/**
 * Where the duration starts: the trailing run of `2h`-like tokens, else the first token
 * that starts with a digit ("10 minutes" is meant as a duration; parsing it says why it is
 * not one), else nowhere.
 */
function durationStart(words: readonly string[]): number {
  let at = words.length;
  while (at > 0 && DURATION_TOKEN.test(words[at - 1]!)) at -= 1;
  if (at < words.length) return at;
  const firstNumber = words.findIndex((w) => /^\d/.test(w));
  return firstNumber === -1 ? words.length : firstNumber;
}

export const mute: Subcommand = {
  name: 'mute',
  group: 'Alerts',
  usage: '/visibility mute <brand> <duration>',
  summary:
    'Hold a brand’s alerts in this channel for a while; they arrive together, in one message, when the mute ends (the digest still comes). Duration: a number and a unit, m minutes, h hours, d days, w weeks, largest first (30m, 2h, 1d, 1h30m), 1 minute to 30 days.',
  examples: [
    '/visibility mute "Acme Analytics" 2h',
    '/visibility mute "Acme Analytics" 1d',
    '/visibility mute acme 1h30m',
  ],
  async run(ctx) {
    const { deps, channelId, userId } = ctx;
    const words = ctx.args.positional;
    const at = durationStart(words);
    const durationText = words.slice(at).join(' ');
    if (durationText === '')
      throw ctx.usageError(mrkdwn`How long? Add a duration, e.g. \`2h\`, \`1d\` or \`1h30m\`.`);
    const duration = parseDuration(durationText);
    if (!duration.ok) throw ctx.usageError(escapeMrkdwn(duration.error));
    await ctx.requireWriter(SUBSCRIPTION_WRITES.mute);
    const sub = resolveSubscribedBrand(deps, channelId, at > 0 ? words.slice(0, at).join(' ') : undefined);
    const now = deps.clock.now();
    const until = now + duration.ms;
    createSubscriptionsRepo(deps.db).setMutedUntil(channelId, sub.brandId, until);
    deps.auditLog.record({
      atMs: now,
      userId,
      channelId,
      brandId: sub.brandId,
      action: SUBSCRIPTION_WRITES.mute,
      detail: { untilMs: until, durationMs: duration.ms },
      result: 'ok',
    });
    await ctx.respond(
      textReply(
        mrkdwn`:no_bell: Alerts for *${brandName(sub.brandName)}* in this channel are muted for ${escapeMrkdwn(formatDuration(duration.ms))}, until ${slackDate(until)}. They are held, not dropped: when the mute ends they arrive together in one message. The daily digest still comes. ${commandFor('unmute', sub)} ends the mute now.`,
      ),
    );
  },
};
