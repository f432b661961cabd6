import type { Migration } from '../migrate.js';
import { rateLimits } from './001-rate-limits.js';
import { auditLog } from './002-audit-log.js';
import { channelDefaults } from './003-channel-defaults.js';
import { alerting } from './004-alerting.js';
import { handledRequests } from './005-handled-requests.js';
import { pollObservations } from './006-poll-observations.js';
import { outboxSendAfter } from './007-outbox-send-after.js';
import { packedCitationState } from './008-packed-citation-state.js';
import { outboxCharts } from './009-outbox-charts.js';
import { channelPace } from './010-channel-pace.js';
import { historyIndexes } from './011-history-indexes.js';
import { modelCitationState } from './012-model-citation-state.js';
import { workspaceCharts } from './013-workspace-charts.js';
import { alertStates } from './014-alert-states.js';
import { citationStateChanges } from './015-citation-state-changes.js';

/**
 * The schema of both backends (migrate.ts). Append new migrations, each with its SQL for
 * SQLite and for Postgres; never edit one that has shipped.
 */
export const migrations: readonly Migration[] = [
  rateLimits,
  auditLog,
  channelDefaults,
  alerting,
  handledRequests,
  pollObservations,
  outboxSendAfter,
  packedCitationState,
  outboxCharts,
  channelPace,
  historyIndexes,
  modelCitationState,
  workspaceCharts,
  alertStates,
  citationStateChanges,
];
