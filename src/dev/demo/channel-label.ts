/** How the console names a channel: #general for the demo channel, DMs as such. */
export function channelLabel(channelId: string, demoChannelId: string): string {
  if (channelId === demoChannelId) return '#general';
  if (channelId.startsWith('D') || channelId.startsWith('U')) return 'a direct message';
  return `#${channelId}`;
}
