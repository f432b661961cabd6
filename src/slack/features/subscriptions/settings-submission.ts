/**
 * The settings form submitted: mistakes under their fields (nothing saved), else the
 * change saved like the command saves it (audited, the channel told), the form closed and
 * the person told what changed where they opened it.
 */
import { mrkdwn } from '../../../messages/mrkdwn.js';
import { textReply } from '../../../messages/reply.js';
import { UserError, UserErrorCode } from '../../../messages/user-error.js';
import { tellUser } from '../../kit/tell-user.js';
import type { SubmissionHandler } from '../../submissions/submission-handler.js';
import { parseBrandModalMetadata } from '../../views/brand-modal-metadata.js';
import { brandName } from '../../views/brand-name.js';
import { announceSettings, type SettingsChange, storeSettings } from './save-settings.js';
import { changedArgs, readSettingsForm } from './settings-fields.js';
import { SETTINGS_CALLBACK_ID } from './settings-modal.js';
import { SUBSCRIPTION_WRITES } from './subscription-writes.js';

export const settingsSubmission: SubmissionHandler = {
  callbackId: SETTINGS_CALLBACK_ID,
  async run(ctx) {
    await ctx.requireWriter(SUBSCRIPTION_WRITES.settings);
    const meta = parseBrandModalMetadata(ctx.privateMetadata);
    const sub = meta?.channelId
      ? await ctx.deps.store.subscriptions.get(meta.channelId, meta.brandId)
      : undefined;
    if (!sub)
      throw new UserError(
        UserErrorCode.NotSubscribed,
        mrkdwn`This channel is no longer subscribed to that brand, so there is nothing to save; close the form.`,
      );
    const form = readSettingsForm(ctx.values, sub.settings);
    if (!form.ok) return { errors: form.errors };
    const args = changedArgs(sub.settings, form.settings);
    const to = { userId: ctx.userId, channelId: sub.channelId };
    if (args.now === '') {
      return {
        close: true,
        afterAck: () =>
          tellUser(
            ctx.client,
            to,
            textReply(
              mrkdwn`Nothing changed: the alert settings for *${brandName(sub.brandName)}* are as they were.`,
            ),
            ctx.deps.logger,
          ),
      };
    }
    const change: SettingsChange = {
      sub,
      settings: form.settings,
      args,
      changed: args.now.split(' ').map((p) => p.slice(0, p.indexOf('='))),
      via: 'form',
    };
    const held = await storeSettings(ctx.deps, ctx.userId, change);
    return {
      close: true,
      afterAck: async () => {
        const reply = await announceSettings(ctx.deps, ctx.client, ctx.userId, change, held);
        await tellUser(ctx.client, to, reply, ctx.deps.logger);
      },
    };
  },
};
