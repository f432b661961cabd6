/** The one line `run-job housekeeping` prints: what it deleted, or why it did not run. */
import { counted } from '../figures/plural.js';
import type { HousekeepingCounts, HousekeepingSummary } from './housekeeping-job.js';

/** Each table in words, as an operator reads the line. */
const NOUNS: Record<keyof HousekeepingCounts, string> = {
  outbox: 'sent message',
  handledRequests: 'Slack request record',
  snoozes: 'expired snooze',
  pollObservations: 'old poll result',
  jobRuns: 'job run record',
  auditLog: 'audit entry',
  alertStates: 'alert state',
};

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function formatHousekeeping(s: HousekeepingSummary): string {
  const deleted = (Object.keys(NOUNS) as (keyof HousekeepingCounts)[])
    .map((k) => counted(s.deleted[k], NOUNS[k]))
    .join(', ');
  if (s.status === 'skipped') return `housekeeping: skipped: ${s.detail ?? 'another process is running it'}`;
  if (s.status === 'ok') return `housekeeping: deleted ${deleted} (${seconds(s.durationMs)})`;
  return `housekeeping: stopped (${s.detail ?? s.status}) after deleting ${deleted}`;
}
