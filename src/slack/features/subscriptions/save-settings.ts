/**
 * What a settings change does, typed or from the form: store the new settings, audit
 * them, tell the channel who changed what (and how to put it back), and answer the person
 * with what was just changed.
 */
import type { WebClient } from '@slack/web-api';
import type { AlertSettings } from '../../../alerts/alert-settings.js';
import { describeSettingChanges } from '../../../alerts/format-settings.js';
import { escapeMrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import type { Reply } from '../../../messages/reply.js';
import type { Subscription } from '../../../store/subscriptions-repo.js';
import type { SlackDeps } from '../../slack-deps.js';
import { brandName } from '../../views/brand-name.js';
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

type Deps = Pick<SlackDeps, 'store' | 'auditLog' | 'clock' | 'logger' | 'config'>;

/** Stores and audits the change (quick: a form's submission does it before its ack). */
export async function storeSettings(deps: Deps, userId: string, c: SettingsChange): Promise<void> {
  const { sub } = c;
  await deps.store.subscriptions.setSettings(sub.channelId, sub.brandId, c.settings);
  await deps.auditLog.record({
    atMs: deps.clock.now(),
    userId,
    channelId: sub.channelId,
    brandId: sub.brandId,
    action: SUBSCRIPTION_WRITES.settings,
    detail: { changed: c.changed, settings: c.settings, via: c.via },
    result: 'ok',
  });
}

/** Tells the channel, and returns the answer for the person who changed it. */
export async function announceSettings(
  deps: Deps,
  client: WebClient,
  userId: string,
  c: SettingsChange,
): Promise<Reply> {
  const { sub } = c;
  // The change in words ("Crawler drop: 40 % → 25 %"), as the settings are shown everywhere.
  const changes = describeSettingChanges(sub.settings, c.settings, {
    defaultTimezone: deps.config.defaultTimezone,
  }).map((line) => line.replace(/^• /, ''));
  const what = changes.length > 0 ? escapeMrkdwn(changes.join('; ')) : mrkdwn`nothing different from before`;
  const noteFailure = await postChannelNote(client, deps.logger, sub.channelId, {
    by: userId,
    did: mrkdwn`changed this channel's alert settings for *${brandName(sub.brandName)}*: ${what}.`,
    undo: mrkdwn`${commandFor('settings', sub, c.args.was)} puts them back.`,
  });
  return withNoteOutcome(
    settingsReply({ ...sub, settings: c.settings }, deps.config.defaultTimezone, { before: sub.settings }),
    noteFailure,
  );
}
