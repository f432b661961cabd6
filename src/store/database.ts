/**
 * The bot's tables as the query builder (Kysely) sees them, one interface for both
 * backends: the repositories are written once against these types, and a column that is
 * misspelt or given the wrong type fails the type check, not a query at run time.
 *
 * The two schemas differ in form only, and these types are what both look like through
 * the store's drivers (sqlite-store-dialect.ts, postgres/postgres-store-dialect.ts):
 * - times are epoch ms (SQLite INTEGER, Postgres bigint read as a number);
 * - a flag is SQLite 0/1 and Postgres boolean: written as a boolean (the SQLite driver
 *   binds it as 0/1), read as `Flag` and turned into a boolean with `isSet`;
 * - JSON is SQLite text and Postgres jsonb, written and read as JSON text on both (the
 *   Postgres pool reads json and jsonb as text); `Json` marks those columns.
 * The rate_* tables belong to the API key's rate budget, which keeps its own persistence.
 */
import type { ColumnType, Generated, Kysely, Selectable } from 'kysely';

/** A 0/1 (SQLite) or boolean (Postgres) column: written as a boolean. */
type Flag = ColumnType<boolean | number, boolean, boolean>;
/** A nullable flag (job_runs.ok: null while the run is running). */
type NullableFlag = ColumnType<boolean | number | null, boolean | null, boolean | null>;
/** JSON as text, written with `SqlDialect.json` (Postgres refuses some escapes SQLite keeps). */
type Json = string;

export const isSet = (flag: boolean | number): boolean => flag === true || flag === 1;

export interface SubscriptionsTable {
  id: Generated<number>;
  channel_id: string;
  brand_id: string;
  brand_name: string;
  alerts: Flag;
  digest: Flag;
  settings: Json;
  created_by: string;
  created_at_ms: number;
  paused_reason: string | null;
  paused_at_ms: number | null;
  muted_until_ms: number | null;
  last_digest_date: string | null;
}

export interface SnoozesTable {
  channel_id: string;
  brand_id: string;
  kind: string;
  until_ms: number;
  created_by: string | null;
  created_at_ms: number;
}

export interface ChannelDefaultsTable {
  channel_id: string;
  brand_id: string;
  set_by: string;
  set_at_ms: number;
}

export interface AuditLogTable {
  id: Generated<number>;
  at_ms: number;
  user_id: string;
  channel_id: string | null;
  brand_id: string | null;
  action: string;
  detail: Json;
  result: string;
}

export interface PollObservationsTable {
  brand_id: string;
  source: string;
  observed_at_ms: number;
  data: Json;
}

export interface HealthFlagsTable {
  key: string;
  detail: string | null;
  raised_at_ms: number;
  raised_reported_at_ms: number | null;
  cleared_at_ms: number | null;
  cleared_reported_at_ms: number | null;
}

/** One row per brand: the packed state of citation-state-packing.ts. */
export interface CitationStateTable {
  brand_id: string;
  url_count: number;
  state: Json;
  updated_at_ms: number;
}

/** Per changed URL, laid over the brand's citation_state row (migration 12). */
export interface CitationStateChangesTable {
  brand_id: string;
  url: string;
  entry: Json;
  updated_at_ms: number;
}

export interface DetectorSnapshotsTable {
  brand_id: string;
  detector: string;
  state: Json;
  updated_at_ms: number;
}

export interface HandledRequestsTable {
  request_key: string;
  handled_at_ms: number;
}

export interface JobRunsTable {
  id: Generated<number>;
  job: string;
  owner: string | null;
  started_at_ms: number;
  finished_at_ms: number | null;
  ok: NullableFlag;
  error: string | null;
  counts: ColumnType<Json, Json | undefined, Json>;
}

export interface JobBrandSuccessTable {
  job: string;
  brand_id: string;
  last_success_ms: number;
}

export interface JobLeasesTable {
  job: string;
  owner: string;
  acquired_at_ms: number;
  expires_at_ms: number;
}

export interface ChannelPaceTable {
  channel_id: string;
  next_at_ms: number;
}

export interface WorkspaceChartsTable {
  team_id: string;
  images_since_ms: number;
  reason: string;
}

type OutboxKindColumn = 'alert' | 'digest' | 'ops' | 'chart';
type OutboxStatusColumn = 'pending' | 'held' | 'sending' | 'sent' | 'failed';

export interface OutboxTable {
  id: Generated<number>;
  dedupe_key: string;
  channel_id: string;
  brand_id: string | null;
  kind: OutboxKindColumn;
  payload: Json;
  status: OutboxStatusColumn;
  attempts: Generated<number>;
  next_attempt_at_ms: number;
  hold_until_ms: number | null;
  lease_owner: string | null;
  lease_until_ms: number | null;
  last_error: string | null;
  slack_ts: string | null;
  created_at_ms: number;
  sent_at_ms: number | null;
  send_after_ms: number | null;
  upload_file_id: string | null;
}

/** One row per brand: the state of the model-stopped-citing rule, JSON. */
export interface ModelCitationStateTable {
  brand_id: string;
  state: Json;
  updated_at_ms: number;
}

export interface AlertStatesTable {
  id: Generated<number>;
  outbox_id: number;
  channel_id: string;
  message_ts: string;
  brand_id: string;
  headline: string;
  kinds: string;
  alert_count: number;
  posted_at_ms: number;
  permalink: string | null;
  previous_id: number | null;
  assignee_id: string | null;
  assigned_by: string | null;
  assigned_at_ms: number | null;
  acknowledged_by: string | null;
  acknowledged_at_ms: number | null;
  resolved_by: string | null;
  resolved_at_ms: number | null;
  resolve_note: string | null;
  dm_channel_id: string | null;
  dm_ts: string | null;
  version: Generated<number>;
}

export interface AlertSubjectsTable {
  alert_id: number;
  channel_id: string;
  brand_id: string;
  subject: string;
}

export interface Database {
  subscriptions: SubscriptionsTable;
  snoozes: SnoozesTable;
  channel_defaults: ChannelDefaultsTable;
  audit_log: AuditLogTable;
  poll_observations: PollObservationsTable;
  health_flags: HealthFlagsTable;
  citation_state: CitationStateTable;
  citation_state_changes: CitationStateChangesTable;
  detector_snapshots: DetectorSnapshotsTable;
  handled_requests: HandledRequestsTable;
  job_runs: JobRunsTable;
  job_brand_success: JobBrandSuccessTable;
  job_leases: JobLeasesTable;
  channel_pace: ChannelPaceTable;
  model_citation_state: ModelCitationStateTable;
  workspace_charts: WorkspaceChartsTable;
  outbox: OutboxTable;
  alert_states: AlertStatesTable;
  alert_subjects: AlertSubjectsTable;
}

export type StoreDb = Kysely<Database>;
export type Row<T extends keyof Database> = Selectable<Database[T]>;
