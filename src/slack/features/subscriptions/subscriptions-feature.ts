import type { Feature } from '../feature.js';
import { alertAck } from './alert-ack.js';
import { alertMenu } from './alert-menu.js';
import { alertAssign, alertReopen } from './alert-owner.js';
import { alertResolve, resolveSubmission } from './alert-resolve.js';
import { alertSnooze, alertUnsnooze } from './alert-snooze.js';
import { mute } from './mute.js';
import { editSettingsButton } from './open-settings-modal.js';
import { settings } from './settings.js';
import { settingsSubmission } from './settings-submission.js';
import { subscribe } from './subscribe.js';
import { muteSelect, unsubscribeButton } from './subscription-buttons.js';
import { subscriptions } from './subscriptions.js';
import { unmute } from './unmute.js';
import { unsubscribe } from './unsubscribe.js';

export const subscriptionsFeature: Feature = {
  subcommands: [subscribe, unsubscribe, subscriptions, settings, mute, unmute],
  actions: [
    alertAck,
    alertSnooze,
    alertUnsnooze,
    alertMenu,
    alertAssign,
    alertResolve,
    alertReopen,
    editSettingsButton,
    muteSelect,
    unsubscribeButton,
  ],
  submissions: [settingsSubmission, resolveSubmission],
};
