/**
 * What `/visibility status` shows, gathered as plain data: the key's limiter, the last API
 * outcome, and the alerting side (each job's last and next run, the polling plan, the
 * bot's health flags, muted and paused subscriptions). Local reads only (the limiter, the
 * database, the scheduler's published state), never the Brand Visibility API: status must
 * answer when the key is rejected or its daily quota is spent, which is exactly when
 * people run it.
 */
import type { LimiterState } from '../api/limiter/types.js';
import type { ApiHealth, ApiHealthSnapshot } from '../api-health.js';
import type { Clock } from '../clock.js';
import type { Retention } from '../config.js';
import type { DatabaseHealth, DatabaseHealthSnapshot } from '../database-health.js';
import type { Metrics } from '../metrics.js';
import type { DatabaseSize } from '../store/database-size-queries.js';
import type { HealthFlag } from '../store/health-flags-repo.js';
import type { JobRun } from '../store/job-runs-repo.js';
import type { Store } from '../store/store.js';
import type { Subscription } from '../store/subscriptions-repo.js';
import { crawlerRuleNow } from './crawler-rule-now.js';
import { currentPollingPlan, type PollingPlanDeps } from './current-polling-plan.js';
import { JOB_NAMES, type JobName } from './job-names.js';
import { asSchedulerSnapshot, type SchedulerSnapshot } from './scheduler-snapshot.js';

/** What the scheduler's part of `status` reads: job runs, flags and subscriptions, the scheduler's published state. */
interface SchedulerStatusDeps extends PollingPlanDeps {
  store: PollingPlanDeps['store'] &
    Pick<Store, 'jobRuns' | 'healthFlags' | 'crawlerHistory' | 'channelDetectorState'>;
  clock: Clock;
  metrics: Pick<Metrics, 'schedulerState'>;
}

/** What `status` reads: the scheduler's part, the API's last outcome, the database's health and size, the retention. */
interface StatusDeps extends SchedulerStatusDeps {
  store: SchedulerStatusDeps['store'] & Pick<Store, 'databaseSize'>;
  apiHealth: Pick<ApiHealth, 'snapshot'>;
  database: Pick<DatabaseHealth, 'snapshot'>;
  config: { retention: Retention };
}

/** How big the database is, and how long the housekeeping keeps each kind of row. */
export interface StorageStatus extends DatabaseSize {
  retention: Retention;
}

export type PlanStatus = SchedulerSnapshot['plan'];

export interface ScheduledJobStatus {
  name: JobName;
  /** The newest run (by any process); null: never run. */
  lastRun: JobRun | null;
  /** Failed runs in a row. */
  failureStreak: number;
  /** From the scheduler of this process; null when it does not run here or has no plan. */
  nextRunAtMs: number | null;
  /** The digest: when its next run prepares it ahead of `nextRunAtMs`; null otherwise. */
  prepareAtMs?: number | null;
}

export interface SchedulerStatus {
  /** The scheduler runs in this process (else jobs run only with `run-job`). */
  running: boolean;
  /** The scheduler's plan when it runs here, else the plan it would make now. */
  plan: PlanStatus;
  /** Set while the daily quota is spent: jobs wait until then (epoch ms). */
  quotaWaitUntilMs: number | null;
  jobs: ScheduledJobStatus[];
  /** The bot's own problems still raised. */
  healthFlags: HealthFlag[];
  subscriptions: {
    total: number;
    channels: number;
    /** Muted now, and paused (channel gone, bot removed), in the repository's order. */
    muted: Subscription[];
    paused: Subscription[];
    /** Which rule judges each active subscription's crawler visits, and why. */
    crawlerRules?: Array<{ brandName: string; channelId: string; why: string }>;
  };
}

export interface StatusReport {
  nowMs: number;
  limiter: LimiterState;
  /** null: could not be read (the section shows as unavailable). */
  service: ApiHealthSnapshot | null;
  /** Whether the database can be used now (when it cannot, the scheduler's part is null). */
  database: DatabaseHealthSnapshot;
  /** null: could not be read (the section shows as unavailable). */
  scheduler: SchedulerStatus | null;
  /** null: could not be read, or the database cannot be used now. */
  storage: StorageStatus | null;
}

async function planStatus(deps: PollingPlanDeps, snap: SchedulerSnapshot | null): Promise<PlanStatus> {
  if (snap) return snap.plan;
  const p = await currentPollingPlan(deps);
  return {
    brands: p.brands,
    dailyLimit: p.dailyLimit,
    budgetPerDay: p.budgetPerDay,
    callsPerDay: p.callsPerDay,
    callsPerBrandPerDay: p.callsPerBrandPerDay,
    maxBrands: p.maxBrands,
    intervalsHours: {
      citations: p.intervals.citationsHours,
      crawler: p.intervals.crawlerHours,
      'ai-pages': p.intervals.aiPagesHours,
    },
    stretched: p.stretched,
    warning: p.warning,
  };
}

async function collectSchedulerStatus(deps: SchedulerStatusDeps, nowMs: number): Promise<SchedulerStatus> {
  const snap = asSchedulerSnapshot(deps.metrics.schedulerState());
  const plan = await planStatus(deps, snap);
  const runs = deps.store.jobRuns;
  const jobs = await Promise.all(
    JOB_NAMES.map(
      async (name): Promise<ScheduledJobStatus> => ({
        name,
        lastRun: (await runs.recent(1, name))[0] ?? null,
        failureStreak: await runs.failureStreak(name),
        nextRunAtMs: snap?.jobs[name]?.nextRunAtMs ?? null,
        prepareAtMs: snap?.jobs[name]?.prepareAtMs ?? null,
      }),
    ),
  );
  const healthFlags = await deps.store.healthFlags.active();
  const all = await deps.store.subscriptions.listAll();
  const active = all.filter((s) => s.pausedReason === null);
  const crawlerRules = [];
  for (const s of active) {
    const { why } = await crawlerRuleNow(deps.store, s, nowMs);
    crawlerRules.push({ brandName: s.brandName, channelId: s.channelId, why });
  }
  return {
    running: snap?.running === true,
    plan,
    quotaWaitUntilMs: snap?.quotaWaitUntilMs ?? null,
    jobs,
    healthFlags,
    subscriptions: {
      total: all.length,
      channels: new Set(all.map((s) => s.channelId)).size,
      muted: all.filter((s) => s.mutedUntilMs !== null && s.mutedUntilMs > nowMs),
      paused: all.filter((s) => s.pausedReason !== null),
      crawlerRules,
    },
  };
}

/** null when `read` throws: one part that cannot be read must not take the others down. */
async function orNull<T>(read: () => T | Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch {
    return null;
  }
}

export async function collectStatus(deps: StatusDeps): Promise<StatusReport> {
  const nowMs = deps.clock.now();
  return {
    nowMs,
    limiter: deps.api.limiterState(),
    service: await orNull(() => deps.apiHealth.snapshot()),
    database: deps.database.snapshot(),
    scheduler: await orNull(() => collectSchedulerStatus(deps, nowMs)),
    storage: await orNull(async () => ({
      ...(await deps.store.databaseSize.size()),
      retention: deps.config.retention,
    })),
  };
}
