/**
 * The action ids of the subscription buttons, named once: the views put them on messages,
 * the handlers answer them (apart, so the pure views import no handler).
 */
export const SUBSCRIPTION_ACTIONS = {
  /** Opens the settings form; value {brandId}. */
  edit: 'vis:settings:edit',
  /** A duration picked from the Mute select; option value {brandId, duration}. */
  mute: 'vis:subs:mute',
  /** Unsubscribe, behind Slack's confirm dialog; value {brandId}. */
  unsubscribe: 'vis:subs:unsubscribe',
  /** Lifts a snooze made from an alert; value {brandId, kind}. */
  unsnooze: 'vis:alert:unsnooze',
} as const;

/** What the Mute select offers: durations in words, as `mute` reads them. */
export const MUTE_CHOICES = ['1 hour', '4 hours', 'until tomorrow 9:00', 'until Monday', '1 week'] as const;
