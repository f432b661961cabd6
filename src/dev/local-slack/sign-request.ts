/**
 * Slack's request signature (v0): HMAC-SHA256 of `v0:${timestamp}:${rawBody}` keyed with the
 * app's signing secret, sent as `X-Slack-Signature: v0=<hex>` beside
 * `X-Slack-Request-Timestamp` (seconds). https://docs.slack.dev/authentication/verifying-requests-from-slack
 */
import { createHmac } from 'node:crypto';

export interface SlackSignature {
  signature: string;
  timestamp: string;
}

export function signSlackRequest(secret: string, body: string, timestampSec: number): SlackSignature {
  const timestamp = String(Math.floor(timestampSec));
  const hex = createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex');
  return { signature: `v0=${hex}`, timestamp };
}
