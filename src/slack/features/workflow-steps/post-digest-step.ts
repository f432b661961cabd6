/**
 * "Post the digest now": a brand and a channel in; the brand's daily digest posted in that
 * channel at once, as the scheduler would post it (citations, content ideas, AI crawler
 * visits, AI Pages), each section fetched now; a link to the message out. It is the
 * digest for today's date in the channel's time zone for the brand (its subscription's,
 * else the bot's default), whether or not the channel is subscribed, and it does not
 * count as that day's scheduled digest. The bot must be in the channel, as for
 * subscribing; a section whose request fails says so and the others still go out.
 *
 * Posted directly, not through the outbox: the step runs once per workflow run (Slack's
 * event is acknowledged and not sent again) and its author waits for the message.
 */

import { composeDigest } from '../../../alerts/compose-digest.js';
import { zonedParts } from '../../../alerts/zoned-time.js';
import { buildDigestMessage } from '../../../messages/digest-message.js';
import { channelMention, escapeMrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import { UserError, UserErrorCode } from '../../../messages/user-error.js';
import { fetchDigestSections } from '../../../use-cases/fetch-digest-sections.js';
import type { StepOutputs, WorkflowStep } from '../../steps/workflow-step.js';
import { BRAND_INPUT, RUN_FOR_INPUT, stepBrand } from './step-brand.js';
import { channelId } from './step-inputs.js';

const CHANNEL_TITLE = 'Channel';

/** Slack's refusal of the post, in words; undefined for anything else. */
function notPostable(err: unknown, channel: string): UserError | undefined {
  const code = (err as { data?: { error?: unknown } } | undefined)?.data?.error;
  if (code === 'not_in_channel' || code === 'channel_not_found') {
    return new UserError(
      UserErrorCode.BotNotInChannel,
      mrkdwn`the bot is not in ${channelMention(channel)}. Invite it there with \`/invite @visibility-bot\`, then run the workflow again.`,
      undefined,
      { cause: err },
    );
  }
  if (code === 'is_archived') {
    return new UserError(
      UserErrorCode.ChannelArchived,
      mrkdwn`${channelMention(channel)} is archived.`,
      undefined,
      {
        cause: err,
      },
    );
  }
  return undefined;
}

export const postDigestStep: WorkflowStep = {
  callbackId: 'post_digest_now',
  definition: {
    title: 'Post the digest now',
    description:
      'Posts a brand’s daily digest (citations, content ideas, AI crawler visits, AI Pages) in a channel right away.',
    input_parameters: {
      brand: BRAND_INPUT,
      channel: {
        type: 'slack#/types/channel_id',
        title: CHANNEL_TITLE,
        description: 'Where to post the digest. The bot must be a member of the channel.',
        is_required: true,
      },
      user: RUN_FOR_INPUT,
    },
    output_parameters: {
      message_link: {
        type: 'string',
        title: 'Digest message link',
        description: 'A link to the digest message in the channel.',
      },
    },
  },
  async run(ctx) {
    const channel = channelId(ctx.inputs, 'channel', CHANNEL_TITLE);
    const brand = await stepBrand(ctx);
    const { api, clock, store, config } = ctx.deps;
    const nowMs = clock.now();
    const subscription = await store.subscriptions.get(channel, brand.id);
    const timeZone = subscription?.settings.timezone ?? config.defaultTimezone;
    const sections = await fetchDigestSections(api, brand.id, nowMs, {});
    const digest = composeDigest({
      brand: { id: brand.id, name: brand.name },
      date: zonedParts(nowMs, timeZone).date,
      late: false,
      ...sections,
    });
    const message = buildDigestMessage(digest, { dedupeKey: `workflow:${ctx.executionId}` });
    let ts: string;
    try {
      const posted = await ctx.client.chat.postMessage({
        channel,
        text: message.text,
        blocks: message.blocks,
        metadata: message.metadata,
      });
      ts = String(posted.ts);
    } catch (err) {
      throw notPostable(err, channel) ?? err;
    }
    ctx.logger.info({ brandId: brand.id, channel, ts }, 'digest posted by a workflow step');
    const outputs: StepOutputs = {};
    // The link is a convenience: the digest is out even when Slack does not give it.
    const link = await ctx.client.chat
      .getPermalink({ channel, message_ts: ts })
      .then((r) => r.permalink)
      .catch(() => undefined);
    if (typeof link === 'string') outputs['message_link'] = escapeMrkdwn(link);
    return outputs;
  },
};
