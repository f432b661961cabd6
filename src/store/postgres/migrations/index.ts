import type { PostgresMigration } from '../migrate-postgres.js';
import { rateLimits } from './001-rate-limits.js';
import { auditLog } from './002-audit-log.js';
import { channelDefaults } from './003-channel-defaults.js';
import { alerting } from './004-alerting.js';
import { handledRequests } from './005-handled-requests.js';
import { pollObservations } from './006-poll-observations.js';
import { channelPace } from './007-channel-pace.js';

/**
 * The Postgres schema, the same tables and columns as SQLite's migrations produce (see
 * src/store/migrations). Append new migrations; never edit one that has shipped. A schema
 * change is made on both backends.
 */
export const postgresMigrations: readonly PostgresMigration[] = [
  rateLimits,
  auditLog,
  channelDefaults,
  alerting,
  handledRequests,
  pollObservations,
  channelPace,
];
