/**
 * `runJobs(deps, job)`: one pass of a job (or of every job) over every matching
 * subscription, then delivery. Used by `run-job`, by the scheduler in `serve` and by the
 * demo's `:jobs`.
 *
 * `all` runs the three polls side by side, then the digest (which reuses what they
 * fetched). Each poll calls its own endpoints, held to that endpoint's per-minute window,
 * so one after another they would leave the key's burst idle while each waits on its own
 * window. The first poll runs alone until one of its calls went through: when the quota is
 * spent or the key is rejected, that costs one call and the jobs after it are not started
 * (they would fail the same way).
 *
 * Delivery follows each job, so a run's alerts go out as soon as that job is done;
 * 'sending' rows left by a killed process of this host are handed back first (checked
 * against the channel history before anything is posted again).
 */

import { type JobName, type JobTarget, jobsOf } from '../use-cases/job-names.js';
import { appBotHealth, type BotHealth } from './bot-health.js';
import { addDelivery, type Delivery, deliverOutbox, emptyDelivery } from './deliver-outbox.js';
import { createJobContext, type JobDeps } from './job-context.js';
import { JOB_DEFINITIONS } from './job-definitions.js';
import { createOutboxRelay, type OutboxRelay, type RelayDeps, type RelayTuning } from './outbox-relay.js';
import { processOwner } from './process-owner.js';
import { releaseDeadOwnerRows } from './release-dead-owner-rows.js';
import { type JobSummary, runJobOnce } from './run-job-once.js';

/** What a pass of the jobs uses: the jobs' own (API, database, clock, config, logger), and the relay's (Slack client, metrics). */
export type RunJobsDeps = JobDeps & RelayDeps;

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

const stops = (s: JobSummary) =>
  s.status === 'quota_spent' ||
  s.status === 'key_rejected' ||
  s.status === 'aborted' ||
  s.status === 'database_unavailable';

/** The polls side by side, then the digest and the weekly summary; a single job alone. */
function phasesOf(job: JobTarget): JobName[][] {
  if (job !== 'all') return [[job]];
  const names = jobsOf(job);
  const summaries = (n: JobName) => n === 'digest' || n === 'weekly';
  return [names.filter((n) => !summaries(n)), names.filter(summaries)];
}

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

/** Starts one job; `finished` once it ran, `delivered` once what it wrote was delivered too. */
type PhaseRun = (
  name: JobName,
  onHealthy?: () => void,
) => { finished: Promise<void>; delivered: Promise<void> };

/**
 * One phase: its first job alone until a call of it went through (the key and the quota
 * are fine) or it is over, then the others beside it. A job that stopped the pass (a
 * spent quota, a rejected key, a shutdown, the database) keeps the rest from starting.
 */
async function runPhase(phase: JobName[], run: PhaseRun, done: Map<JobName, JobSummary>): Promise<void> {
  const blocker = () => [...done.values()].find(stops) ?? null;
  const [first, ...rest] = phase;
  if (!first) return;
  const stopper = blocker();
  if (stopper) {
    for (const name of phase) done.set(name, notStarted(name, stopper));
    return;
  }
  let healthy = () => {};
  const wentThrough = new Promise<void>((resolve) => {
    healthy = resolve;
  });
  const lead = run(first, healthy);
  // The others start once a call of the first went through, or when it is over.
  await Promise.race([wentThrough, lead.finished]);
  const others = rest.map(async (name) => {
    const stopper = blocker();
    if (stopper) done.set(name, notStarted(name, stopper));
    else await run(name).delivered;
  });
  await Promise.all([lead.delivered, ...others]);
}

export async function runJobs(
  deps: RunJobsDeps,
  job: JobTarget,
  options: RunJobsOptions = {},
): Promise<RunJobsSummary> {
  const owner = options.owner ?? processOwner('run-job');
  const { clock } = deps;
  const outbox = deps.store.outbox({ owner });
  const health = options.health ?? appBotHealth(deps, outbox);
  const ctx = createJobContext(deps, { outbox, health, signal: options.signal });

  const given = typeof options.deliver === 'object' ? options.deliver : null;
  const ownRelay = given === null && options.deliver !== false;
  // Our own relay is made for the first drain: a pass that wrote nothing and found nothing
  // waiting (deliverOutbox reads the counts first) never needs one, nor stops one.
  let own: OutboxRelay | undefined;
  const ownRelayOf = (): OutboxRelay => {
    own ??= createOutboxRelay(deps, { owner, outbox, health, ...options.relay });
    return own;
  };
  const relay: Pick<OutboxRelay, 'drainOnce'> | null =
    given ?? (ownRelay ? { drainOnce: () => ownRelayOf().drainOnce() } : null);

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
      const released = await releaseDeadOwnerRows(outbox, clock.now());
      if (released > 0)
        deps.logger.info({ released }, 'outbox rows of a stopped process handed back for delivery');
    }
    const done = new Map<JobName, JobSummary>();
    /** Runs `name`, records its summary, then delivers what it produced. */
    const run: PhaseRun = (name, onHealthy) => {
      const finished = runJobOnce(ctx, JOB_DEFINITIONS[name], {
        owner,
        force: options.force ?? true,
        leaseWaitMs: options.leaseWaitMs ?? DEFAULTS.leaseWaitMs,
        leaseTtlMs: options.leaseTtlMs ?? DEFAULTS.leaseTtlMs,
        brandGapMs: options.brandGapMs ?? DEFAULTS.brandGapMs,
        digestLeadMs: options.digestLeadMs ?? 0,
        ...(onHealthy ? { onHealthy } : {}),
      }).then((summary) => {
        done.set(name, summary);
      });
      return { finished, delivered: finished.then(deliver) };
    };
    for (const phase of phasesOf(job)) await runPhase(phase, run, done);
    for (const name of jobsOf(job)) {
      const summary = done.get(name);
      if (summary) jobs.push(summary);
    }
  } finally {
    await own?.stop();
  }
  const quotaResetAt = jobs.find((j) => j.quotaResetAt !== null)?.quotaResetAt ?? null;
  return {
    jobs,
    delivery,
    quotaResetAt,
    ok: jobs.every((j) => j.status === 'ok' || j.status === 'skipped'),
  };
}
