/**
 * `settings <brand> [key=value …]`: shows this channel's alert settings for a brand, or
 * changes the ones given (parser: src/alerts/parse-settings-args.ts). Every mistake is
 * explained at once, each with an example that works. Changes: admins only when
 * SLACK_ADMIN_USERS is set; audited.
 */
import type { AlertSettings } from '../../../alerts/alert-settings.js';
import { formatSettingsArgs } from '../../../alerts/format-settings.js';
import { parseSettingsArgs, SETTING_EXAMPLES, settingKeys } from '../../../alerts/parse-settings-args.js';
import { escapeMrkdwn, joinMrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import { UserError } from '../../../messages/user-error.js';
import { createSubscriptionsRepo } from '../../../store/subscriptions-repo.js';
import type { Subcommand } from '../../commands/subcommand.js';
import { brandName } from '../../views/brand-name.js';
import { channelNoteText, postChannelNote, withNoteOutcome } from './post-channel-note.js';
import { resolveSubscribedBrand } from './resolve-subscribed-brand.js';
import { SUBSCRIPTION_WRITES } from './subscription-writes.js';
import { commandFor, settingsReply } from './subscriptions-view.js';

/** `crawler-drop=40 tz=default` for the keys in `changes`, as they were before: the undo line. */
function previousValues(changes: readonly string[], before: AlertSettings): string {
  const keys = new Set(changes.map((c) => c.slice(0, c.indexOf('=')).toLowerCase()));
  return formatSettingsArgs(before)
    .split(' ')
    .filter((pair) => keys.has(pair.slice(0, pair.indexOf('='))))
    .join(' ');
}

export const settings: Subcommand = {
  name: 'settings',
  group: 'Alerts',
  usage: '/visibility settings <brand> [key=value …]',
  summary: `Show or change this channel’s alert settings for a brand. Settings: ${settingKeys
    .map((k) => SETTING_EXAMPLES[k])
    .join(
      '; ',
    )}. Times are HH:MM in the subscription’s time zone (tz, an IANA name); quiet hours hold alerts until they end.`,
  examples: [
    '/visibility settings "Acme Analytics"',
    '/visibility settings "Acme Analytics" crawler-drop=30 ai-pages=90,100',
    '/visibility settings "Acme Analytics" digest=08:30 tz=Europe/Berlin quiet=22:00-07:00',
    '/visibility settings "Acme Analytics" events=lost,competitor sentiment-drop=25',
  ],
  async run(ctx) {
    const { deps, channelId, userId } = ctx;
    const at = ctx.args.positional.findIndex((t) => t.includes('='));
    const brandWords = at === -1 ? ctx.args.positional : ctx.args.positional.slice(0, at);
    const changes = at === -1 ? [] : ctx.args.positional.slice(at);
    const sub = resolveSubscribedBrand(
      deps,
      channelId,
      brandWords.length > 0 ? brandWords.join(' ') : undefined,
    );
    if (changes.length === 0) {
      await ctx.respond(settingsReply(sub, deps.config.defaultTimezone));
      return;
    }
    await ctx.requireWriter(SUBSCRIPTION_WRITES.settings);
    const parsed = parseSettingsArgs(changes, sub.settings);
    if (!parsed.ok) {
      throw new UserError(
        'bad_settings',
        mrkdwn`Nothing changed:\n${joinMrkdwn(
          parsed.errors.map((e) => mrkdwn`• ${escapeMrkdwn(e)}`),
          mrkdwn`\n`,
        )}`,
        settings.usage,
      );
    }
    createSubscriptionsRepo(deps.db).setSettings(channelId, sub.brandId, parsed.settings);
    deps.auditLog.record({
      atMs: deps.clock.now(),
      userId,
      channelId,
      brandId: sub.brandId,
      action: SUBSCRIPTION_WRITES.settings,
      detail: { changed: parsed.changed, settings: parsed.settings },
      result: 'ok',
    });
    // The note quotes what was typed, so the channel sees the very change; undoing it is the
    // same keys with their previous values.
    const typed = escapeMrkdwn(changes.join(' '));
    const previous = previousValues(changes, sub.settings);
    const noteFailure = await postChannelNote(
      ctx.client,
      deps.logger,
      channelId,
      channelNoteText(
        userId,
        mrkdwn`changed this channel's alert settings for *${brandName(sub.brandName)}*: \`${typed}\`.`,
        mrkdwn`${commandFor('settings', sub, previous)} puts them back.`,
      ),
    );
    await ctx.respond(
      withNoteOutcome(
        settingsReply({ ...sub, settings: parsed.settings }, deps.config.defaultTimezone, parsed.changed),
        noteFailure,
      ),
    );
  },
};
