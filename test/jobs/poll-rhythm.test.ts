/**
 * Polling at the rhythm of the data: days_back from the snapshot dates seen, the citations
 * poll placed after the service's research run, AI Pages asked daily unless its pace nears
 * a threshold (and the alert says when 100 % comes), and the digest reusing the polls.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { forecastSentence, forecastUsage, type UsageSample } from '../../src/alerts/ai-pages-forecast.js';
import { aiPagesJob, aiPagesPollDue, nextSamples } from '../../src/jobs/ai-pages-job.js';
import { citationsJob } from '../../src/jobs/citations-job.js';
import { crawlerJob } from '../../src/jobs/crawler-job.js';
import { digestJob, freshObservation } from '../../src/jobs/digest-job.js';
import { runJobOnce } from '../../src/jobs/run-job-once.js';
import { citationsPollOffsetMs, POLL_AFTER_RUN_MS, runTimeOfDayMs } from '../../src/use-cases/data-rhythm.js';
import { feedDaysBackFor } from '../../src/use-cases/days-back.js';
import { aiPagesRecord, emptyFeed, type JobFixture, jobFixture, runOnceOptions } from './job-fixture.js';

const H = 3_600_000;
const D = 24 * H;
const T = Date.parse('2025-03-10T10:30:00Z');

describe('days_back', () => {
  it('covers the time since the last run and the snapshots after the last one seen', () => {
    // Never ran: the widest feed, for a baseline.
    expect(feedDaysBackFor(null, null, T)).toBe(30);
    // Ran an hour ago, saw today's snapshot: one day.
    expect(feedDaysBackFor(T - H, '2025-03-10', T)).toBe(1);
    // Ran yesterday, but the service was four days behind then (its own outage) and has
    // caught up since: the feed must reach back past the last snapshot seen.
    expect(feedDaysBackFor(T - D, '2025-03-06', T)).toBe(4);
    // Down for a week: wall-clock time wins.
    expect(feedDaysBackFor(T - 7 * D, '2025-03-09', T)).toBe(7);
    expect(feedDaysBackFor(T - D, '1999-01-01', T)).toBe(30);
    expect(feedDaysBackFor(T - D, 'garbage', T)).toBe(1);
  });
});

describe('data rhythm', () => {
  it("learns the research run's time of day from event times and polls after the usual one", () => {
    const at = (timestamp: string) => ({ timestamp });
    expect(runTimeOfDayMs([at('2025-03-09T06:00:00Z'), at('2025-03-10T06:12:00Z'), at('nope')])).toBe(
      6 * H + 12 * 60_000,
    );
    expect(runTimeOfDayMs([])).toBeNull();
    expect(citationsPollOffsetMs([])).toBeNull();
    expect(citationsPollOffsetMs([5 * H, 6 * H, 23 * H])).toBe(6 * H + POLL_AFTER_RUN_MS);
  });
});

describe('AI Pages forecast', () => {
  const period = '2025-03-31T00:00:00.000Z';
  const sample = (atMs: number, percentage: number): UsageSample => ({ atMs, percentage, period });

  it('says when 100 % comes at the current pace, and how long before the reset', () => {
    // 40 % → 50 % in one day: 10 points a day, 100 % five days after the last sample.
    const f = forecastUsage([sample(T - D, 40), sample(T, 50)])!;
    expect(f.perDay).toBeCloseTo(10);
    expect(f.fullAtMs).toBe(T + 5 * D);
    expect(forecastSentence(f)).toBe('At this pace 100 % on Mar 15, 2025, 15 days before the reset.');
    // Not growing, too little data, or the reset comes first: no forecast.
    expect(forecastUsage([sample(T - D, 50), sample(T, 50)])).toBeNull();
    expect(forecastUsage([sample(T, 50)])).toBeNull();
    expect(forecastUsage([sample(T - D, 10), sample(T, 11)])).toBeNull();
  });

  it('asks a brand daily, and at the runs around the time its pace crosses its next threshold', () => {
    const seen = (samples: UsageSample[], observedAtMs = T) => ({
      observedAtMs,
      data: { input: { unavailable: 'no_entitlement' as const }, samples },
    });
    expect(aiPagesPollDue(null, [80], T)).toBe(true);
    // Far: 50 % growing 1 point a day, next threshold 80 %.
    const far = seen([sample(T - D, 49), sample(T, 50)]);
    expect(aiPagesPollDue(far, [80, 90, 100], T + 3 * H)).toBe(false);
    expect(aiPagesPollDue(far, [80, 90, 100], T + D)).toBe(true);
    // Near: 75 % growing 10 points a day reaches 80 % in half a day, at T + 12 h. Asked by
    // the run before that (a fresh sample) and by every run once it is due, not before.
    const near = seen([sample(T - D, 65), sample(T, 75)]);
    expect(aiPagesPollDue(near, [80, 90, 100], T + 3 * H)).toBe(false);
    expect(aiPagesPollDue(near, [80, 90, 100], T + 6 * H)).toBe(false);
    expect(aiPagesPollDue(near, [80, 90, 100], T + 9 * H)).toBe(true);
    expect(aiPagesPollDue(near, [80, 90, 100], T + 13 * H)).toBe(true);
    // Past every threshold of the channel: nothing to come before the daily poll.
    expect(aiPagesPollDue(near, [50], T + 9 * H)).toBe(false);
  });

  it('keeps the current billing period’s samples only', () => {
    const old = { atMs: T - 20 * D, percentage: 90, period: '2025-02-28T00:00:00.000Z' };
    const next = nextSamples([old], aiPagesRecord('b1', 30), T);
    expect(next).toEqual([{ atMs: T, percentage: 30, period: '2031-01-01T00:00:00.000Z' }]);
    expect(nextSamples(next, { unavailable: 'no_entitlement' }, T + H)).toEqual(next);
  });
});

describe('jobs', () => {
  let f: JobFixture;
  beforeEach(() => {
    f = jobFixture(T);
  });
  afterEach(() => f.close());

  it('the citations job sizes days_back from the snapshot date it last saw', async () => {
    await f.subscribe('C1', 'b1');
    f.fake.feed = (p) => ({ ...emptyFeed(String(p['brandId'])), current_snapshot_date: '2025-03-06' });
    await runJobOnce(f.ctx, citationsJob, runOnceOptions);
    f.clock.advance(D);
    await runJobOnce(f.ctx, citationsJob, runOnceOptions);
    const asked = f.fake.calls.map((c) => c.params['daysBack']);
    // First run: a baseline over 30 days; the next, a day later, reaches back to 03-06.
    expect(asked).toEqual([30, 5]);
  });

  it('the AI Pages alert says when 100 % comes at this pace', async () => {
    await f.subscribe('C1', 'b1');
    f.fake.aiPages = () => aiPagesRecord('b1', 60);
    await runJobOnce(f.ctx, aiPagesJob, runOnceOptions);
    f.clock.advance(D);
    f.fake.aiPages = () => aiPagesRecord('b1', 81);
    await runJobOnce(f.ctx, aiPagesJob, runOnceOptions);
    const rows = f.store.db.prepare("SELECT payload FROM outbox WHERE kind = 'alert'").all() as {
      payload: string;
    }[];
    expect(rows).toHaveLength(1);
    // 60 → 81 % in a day: 100 % a little under a day later (2025-03-12), long before 2031.
    expect(rows[0]!.payload).toContain('At this pace 100 % on Mar 12, 2025');
  });

  it('the digest fetches only the content ideas when the polls are fresh', async () => {
    await f.subscribe('C1', 'b1');
    for (const job of [citationsJob, crawlerJob, aiPagesJob]) await runJobOnce(f.ctx, job, runOnceOptions);
    const polls = f.fake.calls.length;
    f.clock.advance(H);
    await runJobOnce(f.ctx, digestJob, { ...runOnceOptions, force: true });
    expect(f.fake.calls.slice(polls).map((c) => c.method)).toEqual(['getContentIdeas']);
    expect(f.store.db.prepare("SELECT COUNT(*) AS n FROM outbox WHERE kind = 'digest'").get()).toEqual({
      n: 1,
    });

    // A day later nothing is fresh: the digest fetches what the polls have not.
    f.clock.advance(D);
    await runJobOnce(f.ctx, digestJob, { ...runOnceOptions, force: true });
    expect(f.fake.calls.slice(polls + 1).map((c) => c.method)).toEqual([
      'getContentIdeas',
      'getCitationFeed',
      'getCrawlerOverview',
      'getAiPages',
    ]);
  });

  it('reuses a crawler poll only on the day it was made (whole days ending yesterday)', () => {
    const seen = { observedAtMs: T, data: 'periods' };
    expect(freshObservation(seen, 'crawler', T + 13 * H)).toBe('periods');
    expect(freshObservation(seen, 'crawler', T + 14 * H)).toBeNull();
    expect(freshObservation(seen, 'citations', T + 23 * H)).toBe('periods');
    expect(freshObservation(seen, 'citations', T + D)).toBeNull();
  });
});
