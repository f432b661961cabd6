/**
 * `runJobs(deps, job)`: one pass of a job (or of every job, in order) over every matching
 * subscription, then delivery. Used by `run-job`, by the scheduler in `serve` and by the
 * demo's `:jobs`.
 *
 * Delivery follows each job, so a run's alerts go out before the next job starts; 'sending'
 * rows left by a killed process of this host are handed back first (checked against the
 * channel history before anything is posted again). When the quota is spent or the key is
 * rejected, the jobs after it are not started: they would fail the same way.
 */
import type { AppDeps } from '../app-deps.js';
import { createOutboxRepo } from '../store/outbox-repo.js';
import { appBotHealth } from './app-bot-health.js';
import { appOutboxRelay, type RelayTuning } from './app-outbox-relay.js';
import type { BotHealth } from './bot-health.js';
import { addDelivery, type Delivery, deliverOutbox, emptyDelivery } from './deliver-outbox.js';
import { createJobContext } from './job-context.js';
import { JOB_DEFINITIONS } from './job-definitions.js';
import { type JobTarget, jobsOf } from './job-names.js';
import type { OutboxRelay } from './outbox-relay.js';
import { processOwner } from './process-owner.js';
import { releaseDeadOwnerRows } from './release-dead-owner-rows.js';
import { type JobSummary, runJobOnce } from './run-job-once.js';

export interface RunJobsOptions {
  /** Lease and outbox claim owner; default `run-job:<host>:<pid>`. */
  owner?: string;
  /** Digests whatever the hour (run-job, the demo); the scheduler passes false. Default true. */
  force?: boolean;
  /** How long to wait when another process runs the same job; default 30 s (the scheduler: 0). */
  leaseWaitMs?: number;
  /** Job lease time-to-live, renewed after every brand; default 10 min. */
  leaseTtlMs?: number;
  /** Pause between brands, leaving the API to people in Slack; default 0. */
  brandGapMs?: number;
  signal?: AbortSignal;
  /**
   * Deliver after each job: `true` (default) drains with a relay of our own; an existing
   * relay is drained instead; `false` leaves delivery to a relay running elsewhere.
   */
  deliver?: boolean | OutboxRelay;
  /** How long delivery waits for rows due soon (a 429's Retry-After); default 60 s. */
  deliverWaitMs?: number;
  relay?: RelayTuning;
  health?: BotHealth;
  /** Digests due within this long are prepared now, posted at their time; default 0. */
  digestLeadMs?: number;
}

export interface RunJobsSummary {
  jobs: JobSummary[];
  delivery: Delivery | null;
  /** Set when the daily quota is spent: when it resets (epoch ms). */
  quotaResetAt: number | null;
  ok: boolean;
}

const DEFAULTS = {
  leaseWaitMs: 30_000,
  leaseTtlMs: 10 * 60_000,
  brandGapMs: 0,
  deliverWaitMs: 60_000,
};

function notStarted(job: JobSummary['job'], because: JobSummary): JobSummary {
  return {
    ...because,
    job,
    brands: 0,
    succeeded: 0,
    failed: 0,
    alerts: 0,
    notes: 0,
    messages: 0,
    held: 0,
    durationMs: 0,
    detail: `not started: ${because.detail ?? because.status}`,
  };
}

export async function runJobs(
  deps: AppDeps,
  job: JobTarget,
  options: RunJobsOptions = {},
): Promise<RunJobsSummary> {
  const owner = options.owner ?? processOwner('run-job');
  const { clock } = deps;
  const outbox = createOutboxRepo(deps.db, { owner });
  const health = options.health ?? appBotHealth(deps, outbox);
  const ctx = createJobContext(deps, { outbox, health, signal: options.signal });

  const given = typeof options.deliver === 'object' ? options.deliver : null;
  const ownRelay = given === null && options.deliver !== false;
  const relay: OutboxRelay | null =
    given ?? (ownRelay ? appOutboxRelay(deps, { owner, outbox, health }, options.relay) : null);

  const delivery = relay ? emptyDelivery() : null;
  const deliver = async () => {
    if (!relay || !delivery) return;
    const d = await deliverOutbox(relay, outbox, clock, {
      maxWaitMs: options.deliverWaitMs ?? DEFAULTS.deliverWaitMs,
      signal: options.signal,
    });
    addDelivery(delivery, d);
    delivery.pending = d.pending;
  };

  const jobs: JobSummary[] = [];
  try {
    if (ownRelay) {
      const released = releaseDeadOwnerRows(outbox, clock.now());
      if (released > 0)
        deps.logger.info({ released }, 'outbox rows of a stopped process handed back for delivery');
    }
    let blocker: JobSummary | null = null;
    for (const name of jobsOf(job)) {
      if (blocker) {
        jobs.push(notStarted(name, blocker));
        continue;
      }
      const summary = await runJobOnce(ctx, JOB_DEFINITIONS[name], {
        owner,
        force: options.force ?? true,
        leaseWaitMs: options.leaseWaitMs ?? DEFAULTS.leaseWaitMs,
        leaseTtlMs: options.leaseTtlMs ?? DEFAULTS.leaseTtlMs,
        brandGapMs: options.brandGapMs ?? DEFAULTS.brandGapMs,
        digestLeadMs: options.digestLeadMs ?? 0,
      });
      jobs.push(summary);
      if (
        summary.status === 'quota_spent' ||
        summary.status === 'key_rejected' ||
        summary.status === 'aborted'
      )
        blocker = summary;
      await deliver();
    }
  } finally {
    if (ownRelay) await relay?.stop();
  }
  const quotaResetAt = jobs.find((j) => j.quotaResetAt !== null)?.quotaResetAt ?? null;
  return {
    jobs,
    delivery,
    quotaResetAt,
    ok: jobs.every((j) => j.status === 'ok' || j.status === 'skipped'),
  };
}
