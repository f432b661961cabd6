import type { Feature } from '../feature.js';
import { alerts } from './alerts.js';
import { alertsPageAction } from './alerts-page-action.js';

export const alertsFeature: Feature = { subcommands: [alerts], actions: [alertsPageAction] };
