/** The bot's health reporting as jobs and the scheduler use it: flags in the database, reports to SLACK_OPS_CHANNEL. */
import type { AppDeps } from '../app-deps.js';
import { createHealthFlagsRepo } from '../store/health-flags-repo.js';
import type { OutboxRepo } from '../store/outbox-repo.js';
import { type BotHealth, createBotHealth } from './bot-health.js';

export function appBotHealth(
  deps: Pick<AppDeps, 'db' | 'config' | 'clock' | 'logger'>,
  outbox: Pick<OutboxRepo, 'enqueue'>,
): BotHealth {
  return createBotHealth({
    healthFlagsRepo: createHealthFlagsRepo(deps.db),
    outbox,
    opsChannel: deps.config.opsChannel,
    clock: deps.clock,
    logger: deps.logger,
  });
}
