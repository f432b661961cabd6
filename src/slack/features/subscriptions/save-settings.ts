/**
 * What a settings change does, typed or from the form: store the new settings (and give
 * the alerts already held the hold the new quiet hours and time zone make: quiet=off
 * releases them now), audit them, tell the channel who changed what (and how to put it
 * back), and answer the person with what was just changed and what became of held alerts.
 */

import type { WebClient } from '@slack/web-api';
import type { AlertSettings } from '../../../alerts/alert-settings.js';
import { describeSettingChanges } from '../../../alerts/format-settings.js';
import { escapeMrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import { mrkdwnSection, type Reply } from '../../../messages/reply.js';
import type { Subscription } from '../../../store/subscriptions-repo.js';
import { changeHolds, type HeldAlerts } from '../../../use-cases/change-holds.js';
import { crawlerRuleNow } from '../../../use-cases/crawler-rule-now.js';
import type { SlackDeps } from '../../kit/slack-deps.js';
import { brandName } from '../../views/brand-name.js';
import { heldAlertsText } from './held-alerts-text.js';
import { postChannelNote, withNoteOutcome } from './post-channel-note.js';
import { SUBSCRIPTION_WRITES } from './subscription-writes.js';
import { commandFor, settingsReply } from './subscriptions-view.js';

export interface SettingsChange {
  sub: Subscription;
  settings: AlertSettings;
  /** The change as `key=value` pairs (what was typed, or what the form changed) and the pairs that undo it. */
  args: { now: string; was: string };
  /** The audit entry's `changed` (field names) and how it was made. */
  changed: readonly string[];
  via: 'command' | 'form';
}

type Deps = Pick<SlackDeps, 'store' | 'auditLog' | 'clock' | 'logger' | 'config' | 'deliveryNudge'>;

/**
 * Stores and audits the change (quick: a form's submission does it before its ack). Held
 * alerts are held again by the new settings in the same transaction; what nothing holds
 * any more is posted now.
 */
export async function storeSettings(deps: Deps, userId: string, c: SettingsChange): Promise<HeldAlerts> {
  const { sub } = c;
  const now = deps.clock.now();
  const held = await changeHolds(
    deps,
    sub,
    () => deps.store.subscriptions.setSettings(sub.channelId, sub.brandId, c.settings),
    deps.config.defaultTimezone,
    now,
  );
  await deps.auditLog.record({
    atMs: now,
    userId,
    channelId: sub.channelId,
    brandId: sub.brandId,
    action: SUBSCRIPTION_WRITES.settings,
    detail: { changed: c.changed, settings: c.settings, via: c.via, released: held.released },
    result: 'ok',
  });
  return held;
}

/** Tells the channel, and returns the answer for the person who changed it. */
export async function announceSettings(
  deps: Deps,
  client: WebClient,
  userId: string,
  c: SettingsChange,
  held: HeldAlerts,
): Promise<Reply> {
  const { sub } = c;
  // The change in words ("Crawler drop: 40 % → 25 %"), as the settings are shown everywhere.
  const changes = describeSettingChanges(sub.settings, c.settings, {
    defaultTimezone: deps.config.defaultTimezone,
  }).map((line) => line.replace(/^• /, ''));
  const what = changes.length > 0 ? escapeMrkdwn(changes.join('; ')) : mrkdwn`nothing different from before`;
  const heldText = heldAlertsText(held);
  const noteFailure = await postChannelNote(client, deps.logger, sub.channelId, {
    by: userId,
    did: mrkdwn`changed this channel's alert settings for *${brandName(sub.brandName)}*: ${what}.${heldText}`,
    undo: mrkdwn`${commandFor('settings', sub, c.args.was)} puts them back.`,
  });
  const now = { ...sub, settings: c.settings };
  const reply = settingsReply(now, deps.config.defaultTimezone, {
    before: sub.settings,
    crawlerRule: await crawlerRuleNow(deps.store, now, deps.clock.now()),
  });
  // Said after the settings, above their buttons, only when held alerts were there to change.
  const buttonsAt = reply.blocks.findIndex((b) => b.type === 'actions');
  const at = buttonsAt === -1 ? reply.blocks.length : buttonsAt;
  const withHeld: Reply =
    heldText === ''
      ? reply
      : {
          ...reply,
          text: mrkdwn`${reply.text}${heldText}`,
          blocks: [
            ...reply.blocks.slice(0, at),
            mrkdwnSection(mrkdwn`:hourglass:${heldText}`),
            ...reply.blocks.slice(at),
          ],
        };
  return withNoteOutcome(withHeld, noteFailure);
}
