/**
 * `settings [brand] [key=value …]`: without changes, opens the settings form (for whoever
 * may change settings) and shows this channel's alert settings for the brand; with
 * `key=value` pairs, changes those (parser: src/alerts/parse-settings-args.ts), every
 * mistake explained at once, each with an example that works. Changes: admins only when
 * SLACK_ADMIN_USERS is set; audited; the channel is told.
 */

import type { AlertSettings } from '../../../alerts/alert-settings.js';
import { settingsArgValues } from '../../../alerts/format-settings.js';
import { parseSettingsArgs, SETTING_EXAMPLES, settingKeys } from '../../../alerts/parse-settings-args.js';
import { escapeMrkdwn, joinMrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import { UserError, UserErrorCode } from '../../../messages/user-error.js';
import { crawlerRuleNow } from '../../../use-cases/crawler-rule-now.js';
import type { CommandContext, Subcommand } from '../../commands/subcommand.js';
import { openSettingsModal } from './open-settings-modal.js';
import { resolveSubscribedBrand } from './resolve-subscribed-brand.js';
import { announceSettings, storeSettings } from './save-settings.js';
import { SUBSCRIPTION_WRITES } from './subscription-writes.js';
import { settingsReply } from './subscriptions-view.js';

/** `crawler-drop=40 tz=default` for the keys in `changes`, as they were before: the undo line. */
function previousValues(changes: readonly string[], before: AlertSettings): string {
  const keys = new Set(changes.map((c) => c.slice(0, c.indexOf('=')).toLowerCase()));
  return [...settingsArgValues(before)]
    .filter(([key]) => keys.has(key))
    .map(([key, value]) => `${key}=${value}`)
    .join(' ');
}

/** Whether the form may open for this user: no refusal (and no audited refusal) just for looking. */
function mayChange(ctx: CommandContext): boolean {
  const admins = ctx.deps.config.adminUsers;
  return admins.length === 0 || admins.includes(ctx.userId);
}

export const settings: Subcommand = {
  name: 'settings',
  group: 'Alerts',
  usage: '/visibility settings <brand> [key=value …]',
  summary: `Change this channel’s alert settings for a brand in a form (\`--show\`: only show them), or type the changes. Settings: ${settingKeys
    .map((k) => SETTING_EXAMPLES[k])
    .join(
      '; ',
    )}. Times are HH:MM in the subscription’s time zone (tz: a city such as Berlin, or a zone such as Europe/Berlin); quiet hours hold alerts until they end.`,
  examples: [
    '/visibility settings "Acme Analytics"',
    '/visibility settings "Acme Analytics" crawler-drop=30 ai-pages=90,100',
    '/visibility settings "Acme Analytics" digest=08:30 tz=Berlin quiet=22:00-07:00',
    '/visibility settings "Acme Analytics" events=lost,competitor sentiment-drop=25',
  ],
  booleanFlags: ['show'],
  async run(ctx) {
    const { deps, channelId, userId } = ctx;
    const at = ctx.args.positional.findIndex((t) => t.includes('='));
    const brandWords = at === -1 ? ctx.args.positional : ctx.args.positional.slice(0, at);
    const changes = at === -1 ? [] : ctx.args.positional.slice(at);
    const sub = await resolveSubscribedBrand(
      deps,
      channelId,
      brandWords.length > 0 ? brandWords.join(' ') : undefined,
    );
    if (changes.length === 0) {
      // The trigger lives 3 seconds: the form opens first. Not opening it (an old trigger,
      // Slack refusing) still leaves the settings shown, with their Edit button.
      if (ctx.args.flags['show'] === undefined && ctx.triggerId && mayChange(ctx)) {
        await openSettingsModal(ctx, sub).catch((err: unknown) =>
          deps.logger.warn(
            { code: (err as { data?: { error?: unknown } }).data?.error ?? 'unknown' },
            'settings form not opened',
          ),
        );
      }
      const crawlerRule = await crawlerRuleNow(deps.store, sub, deps.clock.now());
      await ctx.respond(settingsReply(sub, deps.config.defaultTimezone, { crawlerRule }));
      return;
    }
    await ctx.requireWriter(SUBSCRIPTION_WRITES.settings);
    const parsed = parseSettingsArgs(changes, sub.settings);
    if (!parsed.ok) {
      throw new UserError(
        UserErrorCode.BadSettings,
        mrkdwn`Nothing changed:\n${joinMrkdwn(
          parsed.errors.map((e) => mrkdwn`• ${escapeMrkdwn(e)}`),
          mrkdwn`\n`,
        )}`,
        settings.usage,
      );
    }
    // The note quotes what was typed, so the channel sees the very change; undoing it is the
    // same keys with their previous values.
    const change = {
      sub,
      settings: parsed.settings,
      args: { now: changes.join(' '), was: previousValues(changes, sub.settings) },
      changed: parsed.changed,
      via: 'command' as const,
    };
    const held = await storeSettings(deps, userId, change);
    await ctx.respond(await announceSettings(deps, ctx.client, userId, change, held));
  },
};
