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
      { nowMs: NOW, limiter: state, service: null, database: answering, scheduler: null },
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
    });
    const text = md(statusReply(parts, mrkdwn`status`).blocks);
    expect(text).toContain('8,400 of 10,000 requests');
    expect(text).toContain('*Service:* unavailable right now.');
    expect(text).toContain('*Scheduled jobs:* unavailable right now.');
  });
});
