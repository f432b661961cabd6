import type { Feature } from '../../feature.js';
import { alertAck } from './alert-ack.js';
import { alertMenu } from './alert-menu.js';
import { alertSnooze } from './alert-snooze.js';
import { mute } from './mute.js';
import { settings } from './settings.js';
import { subscribe } from './subscribe.js';
import { subscriptions } from './subscriptions.js';
import { unmute } from './unmute.js';
import { unsubscribe } from './unsubscribe.js';

export const subscriptionsFeature: Feature = {
  subcommands: [subscribe, unsubscribe, subscriptions, settings, mute, unmute],
  actions: [alertAck, alertSnooze, alertMenu],
};
