/**
 * The bot's whole store as one object: every repository and the transaction that spans
 * them, on SQLite (one process, the default) or Postgres (replicas). Callers take it from
 * their dependencies and never build a repository themselves, so the same code runs on
 * either backend; the composition root (app-deps.ts) picks the backend from the
 * configuration.
 */
import type { Clock } from '../clock.js';
import type { AlertHistoryQueries } from './alert-history-queries.js';
import type { AlertStatesRepo } from './alert-states-repo.js';
import type { AuditLog } from './audit-log.js';
import type { ChannelDefaultsRepo } from './channel-defaults-repo.js';
import type { ChannelDetectorStateRepo } from './channel-detector-state-repo.js';
import type { ChannelPaceRepo } from './channel-pace-repo.js';
import type { CitationStateRepo } from './citation-state-repo.js';
import type { CrawlerHistoryRepo } from './crawler-history-repo.js';
import type { DatabaseSizeQueries } from './database-size-queries.js';
import type { HandledRequestsRepo } from './handled-requests-repo.js';
import type { HealthFlagsRepo } from './health-flags-repo.js';
import type { JobRunsRepo } from './job-runs-repo.js';
import type { ModelCitationStateRepo } from './model-citation-state-repo.js';
import type { OutboxRepo } from './outbox-repo.js';
import type { PollObservationsRepo } from './poll-observations-repo.js';
import type { SnoozesRepo } from './snoozes-repo.js';
import type { SubscriptionsRepo } from './subscriptions-repo.js';
import type { RunInTransaction } from './transaction.js';
import type { WorkspaceChartsRepo } from './workspace-charts-repo.js';

export type StoreBackend = 'sqlite' | 'postgres';

export interface StoreOptions {
  /** The clock job runs are stamped with; default the system clock. */
  clock?: Clock;
  /** Close the database (SQLite handle, Postgres pool) with the store; default true, false when the caller owns it. */
  closesDatabase?: boolean;
}

export interface Store {
  readonly backend: StoreBackend;
  /** Runs its body in one transaction; nested calls become savepoints. */
  readonly transaction: RunInTransaction;
  readonly subscriptions: SubscriptionsRepo;
  readonly snoozes: SnoozesRepo;
  readonly channelDefaults: ChannelDefaultsRepo;
  readonly auditLog: AuditLog;
  readonly pollObservations: PollObservationsRepo;
  readonly healthFlags: HealthFlagsRepo;
  readonly citationState: CitationStateRepo;
  readonly channelDetectorState: ChannelDetectorStateRepo;
  /** Each brand's AI crawler visits per day, for the usual range. */
  readonly crawlerHistory: CrawlerHistoryRepo;
  readonly handledRequests: HandledRequestsRepo;
  readonly alertHistory: AlertHistoryQueries;
  /** Who owns each posted alert message, and what became of it. */
  readonly alertStates: AlertStatesRepo;
  readonly jobRuns: JobRunsRepo;
  /** The database's size and rows per main table (`status`). */
  readonly databaseSize: DatabaseSizeQueries;
  /** Slack send slots per channel, shared by every relay (a channel is paced once). */
  readonly channelPace: ChannelPaceRepo;
  /** Per-brand state of the "a model stopped citing you" rule. */
  readonly modelCitationState: ModelCitationStateRepo;
  /** Workspaces whose Slack refused a chart block: their charts go as images. */
  readonly workspaceCharts: WorkspaceChartsRepo;
  /** The outbox; `owner` names this process in the rows it claims (the relay's lease). */
  outbox(options?: { owner?: string }): OutboxRepo;
  /** Resolves when the database answers a trivial query; rejects otherwise (/healthz). */
  ping(): Promise<void>;
  /** Closes the connection or pool. Idempotent. */
  close(): Promise<void>;
}
