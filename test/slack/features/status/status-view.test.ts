import { describe, expect, it } from 'vitest';
import type { LimiterState } from '../../../../src/api/limiter/types.js';
import type { DatabaseHealthSnapshot } from '../../../../src/database-health.js';
import { validateBlocks } from '../../../../src/dev/local-slack/index.js';
import { mrkdwn } from '../../../../src/messages/mrkdwn.js';
import {
  apiUsageBlocks,
  databaseBlocks,
  limiterBlocks,
  type StatusSection,
  statusBlocks,
  statusReply,
  storageLines,
} from '../../../../src/slack/features/status/status-view.js';

const NOW = Date.UTC(2025, 0, 15, 9, 0, 0);
const state: LimiterState = {
  plan: 'scale',
  tokens: 87.6,
  capacity: 100,
  refillPerSecond: 1,
  usedToday: 8_400,
  dailyLimit: 10_000,
  dailyResetAt: Date.UTC(2025, 0, 16),
  keyPausedUntil: NOW + 30_000,
  endpointPauses: { getCitations: NOW + 10_000, getBrands: NOW - 1 },
  lanes: { interactive: { queued: 1 }, background: { queued: 4 } },
  waitedMs: { interactive: 250, background: 95_000 },
  rateLimitedCount: 2,
};
const md = (blocks: unknown) => JSON.stringify(blocks);
const answering: DatabaseHealthSnapshot = {
  backend: 'sqlite',
  reachable: true,
  since: null,
  reason: null,
  downForSeconds: 0,
};

describe('status sections', () => {
  it('shows the daily usage with a bar and a warning past 80 %', () => {
    const text = md(apiUsageBlocks(state));
    expect(text).toContain('8,400 of 10,000 requests');
    expect(text).toContain('▰▰▰▰▰▰▰▰▱▱ 84 %');
    expect(text).toContain(':warning:');
    expect(md(apiUsageBlocks({ ...state, dailyLimit: null }))).toContain('no daily limit');
  });

  it('shows tokens, queues, and only the pauses still running', () => {
    const text = md(limiterBlocks(state, NOW));
    expect(text).toContain('87 of 100 tokens, refilling 60/min');
    expect(text).toContain('Waiting: 1 interactive, 4 background requests');
    expect(text).toContain('whole key is paused');
    expect(text).toContain('`GET /get-citations` until');
    expect(text).not.toContain('/get-brands');
    expect(text).toContain('2 rate-limit answers');
  });

  it('says when the database cannot be used, since when, and what people see meanwhile', () => {
    expect(md(databaseBlocks(answering))).toContain(
      '*Database* (SQLite file): :large_green_circle: answering.',
    );
    const down = databaseBlocks({
      backend: 'postgres',
      reachable: false,
      since: new Date(NOW - 120_000).toISOString(),
      reason: 'db_unreachable',
      downForSeconds: 120,
    });
    const text = md(down);
    expect(text).toContain('*Database* (Postgres): :red_circle: cannot be reached since <!date^');
    expect(text).toContain('Commands that need it answer that nothing was changed');
    expect(text).toContain('resume by themselves');
    const locked = md(databaseBlocks({ ...answering, reachable: false, reason: 'db_locked', since: null }));
    expect(locked).toContain('locked by another program.');
    expect(validateBlocks(down, 'message')).toBeUndefined();
  });

  it('takes extra sections, and shows a failing one as unavailable without losing the others', async () => {
    const extra: StatusSection[] = [
      {
        name: 'Scheduler',
        blocks: () => [{ type: 'section', text: { type: 'mrkdwn', text: mrkdwn`*Scheduler:* 3 jobs` } }],
      },
      {
        name: 'Outbox',
        blocks: () => {
          throw new Error('db locked');
        },
      },
    ];
    const parts = statusBlocks(
      { nowMs: NOW, limiter: state, service: null, database: answering, scheduler: null, storage: null },
      extra,
    );
    const reply = statusReply(parts, mrkdwn`status`);
    expect(md(reply.blocks)).toContain('*Scheduler:* 3 jobs');
    expect(md(reply.blocks)).toContain('*Outbox:* unavailable right now.');
    expect(validateBlocks(reply.blocks, 'message')).toBeUndefined();
  });

  it('shows the parts that could not be read as unavailable and keeps the usage', () => {
    const parts = statusBlocks({
      nowMs: NOW,
      limiter: state,
      service: null,
      database: answering,
      scheduler: null,
      storage: null,
    });
    const text = md(statusReply(parts, mrkdwn`status`).blocks);
    expect(text).toContain('8,400 of 10,000 requests');
    expect(text).toContain('*Service:* unavailable right now.');
    expect(text).toContain('*Scheduled jobs:* unavailable right now.');
  });
});

describe('the database part of status', () => {
  const storage = {
    bytes: 13_002_342,
    rows: { subscriptions: 12, messages: 3210, pollResults: 36, jobRuns: 1, auditEntries: 845 },
    retention: { messagesDays: 90, pollDataDays: 90, jobRunsDays: 30, auditDays: 365 },
  };

  it('says in words how big it is and what it keeps for how long', () => {
    expect(storageLines(storage)).toBe(
      "Size: 12.4 MB. It holds 12 subscriptions · 3,210 messages (posted ones kept for 90 days) · 845 changes in the audit log (kept for 1 year) · 1 job run (kept for 30 days) · 36 poll results (kept for 90 days after a brand's last poll).",
    );
  });

  it('shows it under a database that answers, and not when it cannot be read', () => {
    const up: DatabaseHealthSnapshot = { ...answering, backend: 'postgres' };
    expect(md(databaseBlocks(up, storage))).toContain('Size: 12.4 MB.');
    expect(md(databaseBlocks(up, null))).not.toContain('Size:');
  });
});
