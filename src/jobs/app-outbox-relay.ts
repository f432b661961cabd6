/** The outbox relay as run-job and the scheduler run it: the app's database, Slack client, clock, logger and metrics. */
import type { AppDeps } from '../app-deps.js';
import { createOutboxRelay, type OutboxRelay, type OutboxRelayOptions } from './outbox-relay.js';

/** The relay's knobs a caller may turn (tests and the demo deliver faster). */
export type RelayTuning = Partial<
  Pick<
    OutboxRelayOptions,
    'paceMs' | 'maxAttempts' | 'backoffBaseMs' | 'backoffMaxMs' | 'leaseMs' | 'batchSize'
  >
>;

export function appOutboxRelay(
  deps: Pick<AppDeps, 'db' | 'web' | 'clock' | 'logger' | 'metrics'>,
  parts: Pick<OutboxRelayOptions, 'owner' | 'outbox' | 'subscriptions' | 'health'>,
  tuning: RelayTuning = {},
): OutboxRelay {
  return createOutboxRelay({
    db: deps.db,
    web: deps.web,
    clock: deps.clock,
    logger: deps.logger,
    metrics: deps.metrics,
    ...parts,
    ...tuning,
  });
}
