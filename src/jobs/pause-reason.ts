/**
 * Why delivery to a channel stopped, in words for `/visibility subscriptions` and `status`
 * (stored in the subscription's paused_reason), ending in Slack's own error code so an
 * operator can look it up.
 */
const REASONS: Readonly<Record<string, string>> = {
  channel_not_found: 'Slack cannot find this channel (deleted, or private without the bot)',
  is_archived: 'the channel is archived',
  not_in_channel: 'the bot is not a member of the channel; invite it with /invite',
  restricted_action: 'posting in this channel is restricted for the bot',
  restricted_action_read_only_channel: 'the channel is read-only',
};

export function pauseReason(slackError: string): string {
  return `${REASONS[slackError] ?? 'Slack refused posts to this channel'} (${slackError})`;
}
