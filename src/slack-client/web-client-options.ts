/**
 * Every Slack Web API client the process creates gets its options here, so all of them
 * honour SLACK_API_URL and a deliberate retry policy.
 *
 * Retry policy: @slack/web-api's default (`tenRetriesInAboutThirtyMinutes`) can hold one
 * call for about 30 minutes, which would freeze a command or a delivery run. Ours: at most
 * 2 retries, 0.5 s then at most 2 s apart, and a 10 s timeout per attempt.
 * - `interactive` (Bolt's own client: users.info, views.open, views.publish): a 429 is
 *   waited out per its Retry-After, within those 2 retries, because a person is waiting
 *   for this very call.
 * - `outbox` (the bot's client for jobs and the outbox relay): `rejectRateLimitedCalls`,
 *   so a 429 comes back at once as a WebAPIRateLimitedError and the relay reschedules the
 *   message by Retry-After itself instead of the client blocking every other channel; and
 *   no retries at all: a post whose answer was lost may have been accepted, and a blind
 *   client retry would post it twice. The relay checks the channel history first.
 */
import type { WebClientOptions } from '@slack/web-api';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { Metrics } from '../metrics.js';
import { boltLogger } from './bolt-logger.js';
import { instrumentedFetch } from './instrumented-fetch.js';

type SlackClientPurpose = 'interactive' | 'outbox';

const SLACK_RETRY_CONFIG = {
  retries: 2,
  factor: 4,
  minTimeout: 500,
  maxTimeout: 2000,
  randomize: true,
};
export const SLACK_CALL_TIMEOUT_MS = 10_000;
/** The outbox relay retries itself, after a history check (see above). */
const SLACK_NO_RETRIES = { retries: 0 };

export function webClientOptions(
  config: Pick<Config, 'slackApiUrl'>,
  purpose: SlackClientPurpose,
  io: { logger: Logger; metrics: Pick<Metrics, 'observeSlackCall'>; fetch?: WebClientOptions['fetch'] },
): WebClientOptions {
  return {
    slackApiUrl: config.slackApiUrl,
    retryConfig: purpose === 'outbox' ? SLACK_NO_RETRIES : SLACK_RETRY_CONFIG,
    rejectRateLimitedCalls: purpose === 'outbox',
    timeout: SLACK_CALL_TIMEOUT_MS,
    logger: boltLogger(io.logger, `slack-web-${purpose}`),
    fetch: instrumentedFetch(io.metrics, config.slackApiUrl, io.fetch),
  };
}
