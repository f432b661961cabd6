/**
 * The channel checks chat.postMessage and friends make, in Slack's order: the channel must
 * exist (`channel_not_found`), not be archived (`is_archived`) and have the bot as a member
 * (`not_in_channel`). https://docs.slack.dev/reference/methods/chat.postMessage#errors
 */
import { str } from '../parse-api-args.js';
import type { ChannelRecord, Workspace } from '../workspace.js';
import { type ApiResult, slackError } from './method-context.js';

interface ChannelRequirements {
  /** Posting needs membership; reading conversations.info does not. */
  member: boolean;
  /** Posting into an archived channel fails; reading its history does not. */
  notArchived: boolean;
}

export function requireChannel(
  ws: Workspace,
  ref: unknown,
  needs: ChannelRequirements,
): { channel: ChannelRecord } | { error: ApiResult } {
  const id = str(ref);
  const channel = id ? ws.resolveChannel(id) : undefined;
  if (!channel) return { error: slackError('channel_not_found') };
  if (needs.notArchived && channel.isArchived) return { error: slackError('is_archived') };
  if (needs.member && !channel.isMember) return { error: slackError('not_in_channel') };
  return { channel };
}
