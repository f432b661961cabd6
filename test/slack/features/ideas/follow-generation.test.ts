/**
 * Following a content ideas refresh through a database outage: every API call needs the
 * key's rate budget, which lives in the database, so while the database is locked the
 * calls fail with the budget's error (here a real SQLITE_BUSY from a locked file, wrapped
 * as the limiter wraps it). That is no failure of the watch: it waits longer each time
 * (backoff-delay.ts) and finishes with the fresh ideas once the calls go through, where
 * three API failures in a row would have ended it.
 */
import { describe, expect, it } from 'vitest';
import { BudgetStoreError } from '../../../../src/api/limiter/budget-store.js';
import type { ContentIdeasResponse } from '../../../../src/api/schemas/index.js';
import type { VisibilityApi } from '../../../../src/api/visibility-api.js';
import type { Reply } from '../../../../src/messages/reply.js';
import { followGeneration } from '../../../../src/slack/features/ideas/follow-generation.js';
import { manualClock } from '../../../helpers/manual-clock.js';
import { captureLogger, type LogLine } from '../../../jobs/job-fixture.js';
import { tempDb } from '../../../store/temp-db.js';

/** The error a grant gets while another connection holds the database file. */
function lockedBudgetError(): BudgetStoreError {
  const t = tempDb();
  try {
    const holder = t.open();
    const budget = t.open();
    budget.pragma('busy_timeout = 0');
    holder.exec('BEGIN EXCLUSIVE');
    try {
      budget.exec("INSERT INTO handled_requests (request_key, handled_at_ms) VALUES ('k', 1)");
    } catch (err) {
      return new BudgetStoreError('The rate budget could not grant a request.', err);
    }
    throw new Error('the write went through a locked file');
  } finally {
    t.close();
  }
}

const answer = (status: string): ContentIdeasResponse => ({
  ideas: [],
  pagination: { total: 0, limit: 5, offset: 0, has_more: false },
  meta: { generation_status: status },
});

describe('following a refresh through a database outage', () => {
  it('waits, backing off, while the budget cannot be reached, and finishes when it can', async () => {
    const outcomes: Array<() => ContentIdeasResponse> = [
      ...Array.from({ length: 4 }, () => () => {
        throw lockedBudgetError();
      }),
      () => answer('generating'),
      () => answer('completed'),
    ];
    const api = {
      getContentIdeas: async () => outcomes.shift()!(),
    } as unknown as VisibilityApi;
    const clock = manualClock(Date.parse('2026-11-24T09:00:00Z'));
    const waits: number[] = [];
    const sleep = clock.sleep;
    clock.sleep = async (ms, signal) => {
      waits.push(ms);
      await sleep(ms, signal);
    };
    const logs: LogLine[] = [];
    const replies: Reply[] = [];
    const outcome = await followGeneration({
      deps: { api, clock, logger: captureLogger(logs) },
      brand: { id: 'brand-1', name: 'Acme Analytics' },
      respond: async (r) => {
        replies.push(r);
      },
      timing: { pollIntervalMs: 1000, timeoutMs: 10 * 60_000 },
      limit: 5,
      signal: new AbortController().signal,
    });
    expect(outcome).toBe('completed');
    expect(waits).toEqual([1000, 1000, 2000, 4000, 8000, 1000]);
    expect(replies).toHaveLength(1);
    expect(JSON.stringify(replies[0]!.blocks)).toContain(
      'Fresh content ideas for *Acme Analytics* are ready',
    );
    expect(logs.filter((l) => l.msg.startsWith('the database cannot be used'))).toHaveLength(1);
    expect(logs.filter((l) => l.msg.startsWith('the database answers again'))).toHaveLength(1);
    expect(logs.filter((l) => l.level >= 40)).toEqual([]);
  });
});
