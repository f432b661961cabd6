/** One line per job run, for `run-job`, logs and the demo: what it did, or why it did not. */
import { counted } from '../figures/plural.js';
import type { Delivery } from './deliver-outbox.js';
import type { JobSummary } from './run-job-once.js';

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function formatJobSummary(s: JobSummary): string {
  switch (s.status) {
    case 'skipped':
      return `${s.job}: skipped: ${s.detail ?? 'another process is running it'}`;
    case 'quota_spent':
    case 'key_rejected':
    case 'aborted':
    case 'database_unavailable':
      if (s.brands === 0) return `${s.job}: ${s.detail ?? s.status}`;
      return `${s.job}: stopped after ${s.succeeded} of ${counted(s.brands, 'brand')}: ${s.detail ?? s.status}`;
    default: {
      const made =
        s.job === 'digest'
          ? counted(s.messages, 'digest')
          : s.job === 'weekly'
            ? counted(s.messages, 'weekly summary', 'weekly summaries')
            : `${counted(s.alerts, 'alert')} in ${counted(s.messages, 'message')}${s.held > 0 ? ` (${s.held} held)` : ''}`;
      const failed = s.failed > 0 ? `, ${s.failed} failed (last: ${s.detail})` : '';
      const verdict = s.status === 'failed' ? ' FAILED' : '';
      return `${s.job}:${verdict} ${counted(s.brands, 'brand')}, ${made}${failed} (${seconds(s.durationMs)})`;
    }
  }
}

export function formatDelivery(d: Delivery): string {
  const parts = [`${d.sent} sent`];
  if (d.merged > 0) parts.push(`${d.merged} delivered inside grouped messages`);
  if (d.recovered > 0) parts.push(`${d.recovered} recovered after a crash`);
  if (d.held > 0) parts.push(`${d.held} held for a mute`);
  if (d.paused > 0) parts.push(`${d.paused} not sent (channel paused)`);
  if (d.failed > 0) parts.push(`${d.failed} failed`);
  if (d.pending > 0) parts.push(`${d.pending} still waiting to be retried`);
  return `delivery: ${parts.join(', ')}`;
}
