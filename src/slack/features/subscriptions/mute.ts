/**
 * `mute <brand> <duration>`: hold this channel's alerts for a brand for a while ("2 hours",
 * "90 minutes", 1h30m, "until tomorrow 9:00", "until Monday"; at most 30 days; an end is
 * read in the subscription's time zone). Held, not dropped: when the mute ends they arrive
 * together, one message. The digest is not muted. Admins only when SLACK_ADMIN_USERS is
 * set; audited.
 */

import {
  DURATION_FORMS,
  formatDuration,
  isDurationWord,
  parseDuration,
} from '../../../alerts/parse-duration.js';
import { escapeMrkdwn, mrkdwn, slackDate } from '../../../messages/mrkdwn.js';
import { textReply } from '../../../messages/reply.js';
import { alertHoldUntil } from '../../../use-cases/alert-hold.js';
import { changeHolds } from '../../../use-cases/change-holds.js';
import type { Subcommand } from '../../commands/subcommand.js';
import { brandName } from '../../views/brand-name.js';
import { postChannelNote, withNoteOutcome } from './post-channel-note.js';
import { resolveSubscribedBrand } from './resolve-subscribed-brand.js';
import { SUBSCRIPTION_WRITES } from './subscription-writes.js';
import { commandFor } from './subscriptions-view.js';

/**
 * Where the duration starts: at "until" (an end), else the trailing run of duration words
 * ("2 hours", "1h 30m", "1 hour and 30 minutes") that starts with a number, else the first
 * token that starts with a digit ("10 fortnights" is meant as a duration; parsing it says
 * why it is not one), else nowhere.
 */
function durationStart(words: readonly string[]): number {
  const until = words.findLastIndex((w) => w.toLowerCase() === 'until');
  if (until !== -1) return until;
  let at = words.length;
  while (at > 0 && isDurationWord(words[at - 1]!)) at -= 1;
  // The run must start with a number: in "acme hours 2h" the brand keeps "hours".
  while (at < words.length && !/^\d/.test(words[at]!)) at += 1;
  if (at < words.length) return at;
  const firstNumber = words.findIndex((w) => /^\d/.test(w));
  return firstNumber === -1 ? words.length : firstNumber;
}

export const mute: Subcommand = {
  name: 'mute',
  group: 'Alerts',
  usage: '/visibility mute <brand> <duration>',
  summary:
    'Hold a brand’s alerts in this channel for a while; they arrive together, in one message, when the mute ends (the digest still comes). Duration: how long ("2 hours", "90 minutes", "1 day", or short: 30m, 2h, 1d, 1h30m) or until when ("until 17:00", "until tomorrow 9:00", "until Monday", in the subscription’s time zone), 1 minute to 30 days.',
  examples: [
    '/visibility mute "Acme Analytics" 2 hours',
    '/visibility mute "Acme Analytics" until tomorrow 9:00',
    '/visibility mute "Acme Analytics" until Monday',
    '/visibility mute acme 1h30m',
  ],
  async run(ctx) {
    const { deps, channelId, userId } = ctx;
    const words = ctx.args.positional;
    const at = durationStart(words);
    const durationText = words.slice(at).join(' ');
    if (durationText === '') throw ctx.usageError(escapeMrkdwn(`How long? ${DURATION_FORMS}.`));
    await ctx.requireWriter(SUBSCRIPTION_WRITES.mute);
    // "mute acme for 2 hours": the "for" belongs to neither the brand nor the duration.
    const brandEnd = at > 0 && words[at - 1]!.toLowerCase() === 'for' ? at - 1 : at;
    const sub = await resolveSubscribedBrand(
      deps,
      channelId,
      brandEnd > 0 ? words.slice(0, brandEnd).join(' ') : undefined,
    );
    const now = deps.clock.now();
    // "until Monday" means Monday where the channel is: the zone its digests use.
    const timeZone = sub.settings.timezone ?? deps.config.defaultTimezone;
    const duration = parseDuration(durationText, { nowMs: now, timeZone });
    if (!duration.ok) throw ctx.usageError(escapeMrkdwn(duration.error));
    const until = now + duration.ms;
    // Alerts already held (an earlier mute, quiet hours) now wait for this mute's end instead.
    await changeHolds(
      deps,
      sub,
      () => deps.store.subscriptions.setMutedUntil(channelId, sub.brandId, until),
      deps.config.defaultTimezone,
      now,
    );
    await deps.auditLog.record({
      atMs: now,
      userId,
      channelId,
      brandId: sub.brandId,
      action: SUBSCRIPTION_WRITES.mute,
      detail: { untilMs: until, durationMs: duration.ms },
      result: 'ok',
    });
    const name = brandName(sub.brandName);
    const howLong = duration.until
      ? mrkdwn`until ${slackDate(until)}`
      : mrkdwn`for ${escapeMrkdwn(formatDuration(duration.ms))}, until ${slackDate(until)}`;
    // A mute that ends inside quiet hours hands its alerts on to them: say when they really come.
    const release = alertHoldUntil(now, {
      mutedUntilMs: until,
      quietHours: sub.settings.quietHours,
      timeZone,
    });
    const when =
      release !== null && release > until
        ? mrkdwn`when quiet hours end after it, ${slackDate(release)}`
        : mrkdwn`when the mute ends`;
    const noteFailure = await postChannelNote(ctx.client, deps.logger, channelId, {
      by: userId,
      did: mrkdwn`muted alerts for *${name}* in this channel ${howLong}; they are held and arrive together ${when}.`,
      undo: mrkdwn`${commandFor('unmute', sub)} ends it now.`,
    });
    await ctx.respond(
      withNoteOutcome(
        textReply(
          mrkdwn`:no_bell: Alerts for *${name}* in this channel are muted ${howLong}. They are held, not dropped: they arrive together in one message ${when}. The daily digest still comes. ${commandFor('unmute', sub)} ends the mute now.`,
        ),
        noteFailure,
      ),
    );
  },
};
