/**
 * The channel knows: when someone changes what a channel receives (subscribe, unsubscribe,
 * settings, mute, unmute, snooze), the bot says so in the channel, naming who did it and
 * how to undo it. The person who did it still gets their own private reply.
 *
 * The note is a courtesy, not the change: a failed post (the bot was removed from the
 * channel, Slack is down) is logged and mentioned in that reply, never a failed command.
 */
import type { WebClient } from '@slack/web-api';
import type { Logger } from '../../../logger.js';
import type { KnownBlock } from '../../../messages/block-kit-types.js';
import { type Mrkdwn, mrkdwn, userMention } from '../../../messages/mrkdwn.js';
import { mrkdwnSection, type Reply } from '../../../messages/reply.js';

/** Marks the notes among the bot's posts (tests, and anyone reading the channel's history). */
export const CHANNEL_NOTE_EVENT = 'visibility_channel_note';

/** A note: who (`by`, a user id) did what, and how to undo it. */
interface ChannelNote {
  by: string;
  /** Reads after the mention: `<@U…> muted alerts for …`. */
  did: Mrkdwn;
  undo: Mrkdwn;
}

/**
 * Posts the note; resolves with a sentence to add to the user's reply when it could not
 * be posted ('' when it was).
 */
export async function postChannelNote(
  client: WebClient,
  logger: Logger,
  channelId: string,
  note: ChannelNote,
  /** Buttons under the note (an Undo), for anyone in the channel. */
  actions: readonly KnownBlock[] = [],
): Promise<Mrkdwn> {
  const text = mrkdwn`${userMention(note.by)} ${note.did} ${note.undo}`;
  try {
    await client.chat.postMessage({
      channel: channelId,
      text: String(text),
      // The note is already mrkdwn we built and escaped; Slack should not re-link names.
      blocks: [mrkdwnSection(text), ...actions],
      unfurl_links: false,
      unfurl_media: false,
      metadata: { event_type: CHANNEL_NOTE_EVENT, event_payload: {} },
    });
    return mrkdwn``;
  } catch (err) {
    const code = (err as { data?: { error?: unknown } }).data?.error;
    // The code only: the error object carries the request, which is ours to keep out of logs.
    logger.warn({ channelId, code: typeof code === 'string' ? code : 'unknown' }, 'channel note not posted');
    const why =
      code === 'not_in_channel' || code === 'channel_not_found'
        ? mrkdwn`I'm not a member of this channel; invite me with \`/invite @visibility-bot\``
        : mrkdwn`Slack did not accept the message`;
    return mrkdwn` (I could not tell the channel about this change: ${why}. The change itself is made.)`;
  }
}

/** The user's reply, told that the channel could not be told (nothing when it was). */
export function withNoteOutcome(reply: Reply, failure: Mrkdwn): Reply {
  if (failure === '') return reply;
  return {
    ...reply,
    text: mrkdwn`${reply.text}${failure}`,
    blocks: [...reply.blocks, mrkdwnSection(mrkdwn`:warning:${failure}`)],
  };
}
