/**
 * `/visibility status`: how the bot and its API key are doing. The reply is a list of
 * sections, each a `StatusSection` in `statusSections` drawn from the report
 * src/use-cases/collect-status.ts gathered (local state only, never the API); a section whose
 * part could not be read shows as unavailable, the others still show.
 */

import { ENDPOINTS } from '../../../api/endpoint-table.js';
import type { LimiterState } from '../../../api/limiter/types.js';
import type { ApiHealthSnapshot } from '../../../api-health.js';
import type { DatabaseHealthSnapshot } from '../../../database-health.js';
import { counted } from '../../../figures/plural.js';
import { BLOCK_KIT_LIMITS as L } from '../../../messages/block-kit-limit-table.js';
import type { KnownBlock } from '../../../messages/block-kit-types.js';
import { formatBytes, formatCount } from '../../../messages/format-number.js';
import { escapeMrkdwn, joinMrkdwn, type Mrkdwn, mrkdwn, slackDate } from '../../../messages/mrkdwn.js';
import type { Reply } from '../../../messages/reply.js';
import { truncateMrkdwn, truncatePlain } from '../../../messages/truncate-mrkdwn.js';
import type { StatusReport, StorageStatus } from '../../../use-cases/collect-status.js';
import { progressBar } from '../../views/progress-bar.js';
import { shareActionsBlock } from '../../views/share-button.js';
import { schedulerStatusBlocks } from './scheduler-status-view.js';

export interface StatusSection {
  name: string;
  /** Its blocks from the report; a throw (its part missing) shows it as unavailable. */
  blocks(report: StatusReport): KnownBlock[];
}

/** The plan comes from our config (scale, enterprise, test); kept short all the same. */
const planName = (s: LimiterState) => escapeMrkdwn(truncatePlain(s.plan, 40));
const section = (text: Mrkdwn): KnownBlock => ({
  type: 'section',
  text: { type: 'mrkdwn', text: truncateMrkdwn(text, L.sectionText) },
});

function seconds(ms: number): Mrkdwn {
  if (ms < 1000) return mrkdwn`${Math.round(ms)} ms`;
  if (ms < 120_000) return escapeMrkdwn(`${(ms / 1000).toFixed(1)} s`);
  return mrkdwn`${Math.round(ms / 60_000)} min`;
}

/** Requests today against the key's daily limit (docs/api.md §8), shared by every process using the key. */
export function apiUsageBlocks(s: LimiterState): KnownBlock[] {
  if (s.dailyLimit === null) {
    return [
      section(
        mrkdwn`*API usage today:* ${escapeMrkdwn(counted(s.usedToday, 'request'))} (the ${planName(s)} plan has no daily limit).`,
      ),
    ];
  }
  const pct = s.dailyLimit > 0 ? (s.usedToday / s.dailyLimit) * 100 : 100;
  const warn =
    pct >= 100
      ? mrkdwn` :no_entry: Spent: only cached answers until it resets.`
      : pct >= 80
        ? mrkdwn` :warning:`
        : mrkdwn``;
  return [
    section(
      mrkdwn`*API usage today:* ${formatCount(s.usedToday)} of ${formatCount(s.dailyLimit)} requests  \`${progressBar(pct)}\`${warn}\nResets ${slackDate(s.dailyResetAt)}.`,
    ),
  ];
}

/** The key's token bucket, queues and pauses (docs/api.md §8: one key, one budget). */
export function limiterBlocks(s: LimiterState, nowMs: number): KnownBlock[] {
  const lines = [
    mrkdwn`*Rate limiter* (${planName(s)} plan): ${Math.floor(s.tokens)} of ${formatCount(s.capacity)} tokens, refilling ${formatCount(Math.round(s.refillPerSecond * 60))}/min.`,
    mrkdwn`Waiting: ${s.lanes.interactive.queued} interactive, ${s.lanes.background.queued} background request${s.lanes.background.queued === 1 ? mrkdwn`` : mrkdwn`s`}. Time spent waiting since start: ${seconds(s.waitedMs.interactive)} interactive, ${seconds(s.waitedMs.background)} background.`,
  ];
  if (s.keyPausedUntil !== null && s.keyPausedUntil > nowMs) {
    lines.push(
      mrkdwn`:double_vertical_bar: The whole key is paused after a rate limit until ${slackDate(s.keyPausedUntil)}.`,
    );
  }
  const pauses = Object.entries(s.endpointPauses)
    .filter(([, until]) => until !== undefined && until > nowMs)
    .map(([key, until]) => {
      const spec = ENDPOINTS[key as keyof typeof ENDPOINTS];
      const name = escapeMrkdwn(spec ? `${spec.method} ${spec.path}` : key);
      return mrkdwn`\`${name}\` until ${slackDate(until!)}`;
    });
  if (pauses.length > 0)
    lines.push(mrkdwn`:double_vertical_bar: Paused endpoints: ${joinMrkdwn(pauses, mrkdwn`, `)}.`);
  lines.push(
    s.rateLimitedCount === 0
      ? mrkdwn`No rate-limit answers (429) from the service since start.`
      : mrkdwn`:warning: ${s.rateLimitedCount} rate-limit answer${s.rateLimitedCount === 1 ? mrkdwn`` : mrkdwn`s`} (429) from the service since start.`,
  );
  return [section(joinMrkdwn(lines, mrkdwn`\n`))];
}

/** The last real API call's outcome (no probe: that would spend the key's budget). */
export function serviceBlocks(h: ApiHealthSnapshot): KnownBlock[] {
  if (h.reachable === null) return [section(mrkdwn`*Service:* no request sent since the bot started.`)];
  const when = h.checkedAt ? mrkdwn` (${slackDate(Date.parse(h.checkedAt))})` : mrkdwn``;
  const status =
    h.lastStatus === null ? mrkdwn`` : mrkdwn`, last answer: ${escapeMrkdwn(String(h.lastStatus))}`;
  return [
    section(
      h.reachable
        ? mrkdwn`*Service:* :large_green_circle: answering${status}${when}.`
        : mrkdwn`*Service:* :red_circle: not answering${status}${when}.`,
    ),
  ];
}

const BACKEND_NAMES = { sqlite: mrkdwn`SQLite file`, postgres: mrkdwn`Postgres` } as const;

/** "90 days", "1 year": how long the housekeeping keeps a kind of row. */
function keptFor(days: number): Mrkdwn {
  return escapeMrkdwn(days % 365 === 0 ? counted(days / 365, 'year') : counted(days, 'day'));
}

/**
 * What the database holds, in words: its size, then each main kind of row with how long
 * it is kept (the daily housekeeping deletes the rest).
 */
export function storageLines(s: StorageStatus): Mrkdwn {
  const { rows, retention: r } = s;
  const kinds = [
    mrkdwn`${escapeMrkdwn(counted(rows.subscriptions, 'subscription'))}`,
    mrkdwn`${escapeMrkdwn(counted(rows.messages, 'message'))} (posted ones kept for ${keptFor(r.messagesDays)})`,
    mrkdwn`${escapeMrkdwn(counted(rows.auditEntries, 'change'))} in the audit log (kept for ${keptFor(r.auditDays)})`,
    mrkdwn`${escapeMrkdwn(counted(rows.jobRuns, 'job run'))} (kept for ${keptFor(r.jobRunsDays)})`,
    mrkdwn`${escapeMrkdwn(counted(rows.pollResults, 'poll result'))} (kept for ${keptFor(r.pollDataDays)} after a brand's last poll)`,
  ];
  return mrkdwn`Size: ${formatBytes(s.bytes)}. It holds ${joinMrkdwn(kinds, mrkdwn` · `)}.`;
}

/** Whether the database can be used (and, when it answers, what it holds); when not, since when and what that means for people. */
export function databaseBlocks(
  d: DatabaseHealthSnapshot,
  storage: StorageStatus | null = null,
): KnownBlock[] {
  const name = BACKEND_NAMES[d.backend];
  if (d.reachable) {
    const held = storage ? mrkdwn`\n${storageLines(storage)}` : mrkdwn``;
    return [section(mrkdwn`*Database* (${name}): :large_green_circle: answering.${held}`)];
  }
  const since = d.since ? mrkdwn` since ${slackDate(Date.parse(d.since))}` : mrkdwn``;
  const what =
    d.reason === 'db_locked'
      ? mrkdwn`locked by another program`
      : d.reason === 'db_timeout'
        ? mrkdwn`not answering in time`
        : mrkdwn`cannot be reached`;
  return [
    section(
      mrkdwn`*Database* (${name}): :red_circle: ${what}${since}. Commands that need it answer that nothing was changed; scheduled jobs and deliveries wait and resume by themselves when it answers again.`,
    ),
  ];
}

/** A part of the report that could not be read (null) fails its section. */
function available<T>(part: T | null, name: string): T {
  if (part === null) throw new Error(`${name} unavailable`);
  return part;
}

const statusSections: StatusSection[] = [
  { name: 'API usage', blocks: (r) => apiUsageBlocks(r.limiter) },
  { name: 'Rate limiter', blocks: (r) => limiterBlocks(r.limiter, r.nowMs) },
  { name: 'Service', blocks: (r) => serviceBlocks(available(r.service, 'service')) },
  { name: 'Database', blocks: (r) => databaseBlocks(r.database, r.storage) },
  {
    name: 'Scheduled jobs',
    blocks: (r) => schedulerStatusBlocks(available(r.scheduler, 'scheduler'), r.nowMs),
  },
];

/** Every section's blocks, a failing section replaced by a line saying so. */
export function statusBlocks(
  report: StatusReport,
  sections: readonly StatusSection[] = statusSections,
): KnownBlock[][] {
  return sections.map((s) => {
    try {
      return s.blocks(report);
    } catch {
      return [section(mrkdwn`*${escapeMrkdwn(s.name)}:* unavailable right now.`)];
    }
  });
}

export function statusReply(parts: readonly KnownBlock[][], fallback: Mrkdwn, commandText = 'status'): Reply {
  const blocks: KnownBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: mrkdwn`Brand Visibility bot status` } },
  ];
  for (const [i, part] of parts.entries()) {
    if (i > 0 && part.length > 0) blocks.push({ type: 'divider' });
    blocks.push(...part);
  }
  blocks.push(shareActionsBlock(commandText));
  return { text: truncateMrkdwn(fallback, L.fallbackText), blocks };
}

/** The plain-text fallback: the two figures people ask status for. */
export function statusFallback(s: LimiterState): Mrkdwn {
  const usage =
    s.dailyLimit === null
      ? mrkdwn`${escapeMrkdwn(counted(s.usedToday, 'API request'))} today`
      : mrkdwn`${formatCount(s.usedToday)} of ${formatCount(s.dailyLimit)} API requests used today`;
  return mrkdwn`Bot status: ${usage}; rate limiter ${Math.floor(s.tokens)}/${formatCount(s.capacity)} tokens, ${s.lanes.interactive.queued + s.lanes.background.queued} waiting.`;
}
