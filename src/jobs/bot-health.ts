/**
 * The bot's own trouble (docs/alert-semantics.md: key rejected, daily quota spent, jobs failing). Each
 * problem is logged, and reported to SLACK_OPS_CHANNEL once when it starts and once when it
 * clears, however many runs see it in between. Reports go through the outbox as kind 'ops'
 * with a dedupe key that includes the time the episode began, so a report written twice
 * (a crash between the outbox row and the "reported" mark) is still posted once.
 */
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import { buildOpsMessage, OPS_METADATA_EVENT } from '../messages/ops-message.js';
import type { HealthFlag, HealthFlagsRepo } from '../store/health-flags-repo.js';
import type { OutboxRepo } from '../store/outbox-repo.js';
import type { Store } from '../store/store.js';
import type { JobSettings } from './job-settings.js';

export type BotHealthFlag = 'key_rejected' | 'quota_spent' | `job_failing:${string}`;

interface BotHealthOptions {
  healthFlagsRepo: HealthFlagsRepo;
  outbox: Pick<OutboxRepo, 'enqueue'>;
  /** SLACK_OPS_CHANNEL; unset = logs and `status` only. */
  opsChannel?: string | undefined;
  clock: Clock;
  logger: Logger;
}

export interface BotHealth {
  raise(flag: BotHealthFlag, detail: string): Promise<void>;
  clear(flag: BotHealthFlag): Promise<void>;
  /** Flags raised now, oldest first (for `status` and /healthz). */
  current(): Promise<HealthFlag[]>;
  /** Writes reports still owed (e.g. from before a crash); raise and clear call it. */
  flush(): Promise<void>;
}

function opsDedupeKey(flag: string, event: 'raised' | 'cleared', atMs: number): string {
  return `ops:${flag}:${event}:${atMs}`;
}

export function createBotHealth(o: BotHealthOptions): BotHealth {
  const logger = o.logger.child({ component: 'bot-health' });
  const repo = o.healthFlagsRepo;

  async function flush(): Promise<void> {
    const now = o.clock.now();
    for (const r of await repo.pendingReports()) {
      if (o.opsChannel) {
        const message = buildOpsMessage({ flag: r.key, event: r.event, detail: r.detail, atMs: r.atMs });
        await o.outbox.enqueue({
          dedupeKey: opsDedupeKey(r.key, r.event, r.atMs),
          channelId: o.opsChannel,
          brandId: null,
          kind: 'ops',
          payload: {
            ...message,
            metadata: { event_type: OPS_METADATA_EVENT, event_payload: { flag: r.key, event: r.event } },
          },
          nowMs: now,
        });
      }
      await repo.markReported(r.key, r.event, now);
      logger.info(
        { flag: r.key, event: r.event, opsChannel: o.opsChannel ?? null },
        o.opsChannel
          ? 'health change queued for the ops channel'
          : 'health change recorded (no SLACK_OPS_CHANNEL)',
      );
    }
  }

  return {
    async raise(flag, detail) {
      if (await repo.raise(flag, detail, o.clock.now()))
        logger.error({ flag, detail }, 'bot health: problem raised');
      else logger.debug({ flag, detail }, 'bot health: problem persists');
      await flush();
    },
    async clear(flag) {
      if (!(await repo.clear(flag, o.clock.now()))) return;
      logger.info({ flag }, 'bot health: problem cleared');
      await flush();
    },
    current: () => repo.active(),
    flush,
  };
}

/** What the jobs' health reporting uses: the flags' table, SLACK_OPS_CHANNEL, the clock, the logger. */
interface BotHealthDeps {
  store: Pick<Store, 'healthFlags'>;
  config: Pick<JobSettings, 'opsChannel'>;
  clock: Clock;
  logger: Logger;
}

/** The bot's health as jobs and the scheduler use it: flags in the database, reports to SLACK_OPS_CHANNEL. */
export function appBotHealth(deps: BotHealthDeps, outbox: Pick<OutboxRepo, 'enqueue'>): BotHealth {
  return createBotHealth({
    healthFlagsRepo: deps.store.healthFlags,
    outbox,
    opsChannel: deps.config.opsChannel,
    clock: deps.clock,
    logger: deps.logger,
  });
}
