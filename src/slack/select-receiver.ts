/**
 * HTTP or Socket Mode, decided from the config alone (no network). An app-level token
 * is an explicit opt-in to Socket Mode, so it wins when both are set.
 */
import type { Config } from '../config.js';

export type ReceiverChoice = { mode: 'socket'; appToken: string } | { mode: 'http'; signingSecret: string };

export function selectReceiver(config: Pick<Config, 'slackAppToken' | 'slackSigningSecret'>): ReceiverChoice {
  if (config.slackAppToken) return { mode: 'socket', appToken: config.slackAppToken };
  if (config.slackSigningSecret) return { mode: 'http', signingSecret: config.slackSigningSecret };
  throw new Error(
    'No way to receive Slack traffic: set SLACK_SIGNING_SECRET (HTTP mode) or SLACK_APP_TOKEN (Socket Mode).',
  );
}
