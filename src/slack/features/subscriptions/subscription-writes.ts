/**
 * The subscription changes, named once (like BRAND_WRITES): the phrase is what a refusal
 * says ("Only the bot's admins can mute alerts") and the `action` of the audit entry.
 */
export const SUBSCRIPTION_WRITES = {
  subscribe: 'subscribe channels to alerts and digests',
  unsubscribe: 'unsubscribe channels',
  settings: 'change alert settings',
  mute: 'mute alerts',
  unmute: 'unmute alerts',
} as const;
