/**
 * The jobs' per-brand work with the real detectors, repositories and outbox: what each
 * asks the API for, how one answer fans out to channels with their own settings, state
 * and holds (mute, snooze, quiet hours), and that nothing is written twice.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_ALERT_SETTINGS } from '../../src/alerts/alert-settings.js';
import type { FeedEvent } from '../../src/api/schemas/citations.js';
import { aiPagesJob } from '../../src/jobs/ai-pages-job.js';
import { citationsJob } from '../../src/jobs/citations-job.js';
import { crawlerJob } from '../../src/jobs/crawler-job.js';
import { runJobOnce } from '../../src/jobs/run-job-once.js';
import { createSqliteStore } from '../../src/store/create-sqlite-store.js';
import { overviewFromSeries } from '../alerts/fixtures.js';
import { aiPagesRecord, emptyFeed, type JobFixture, jobFixture, runOnceOptions } from './job-fixture.js';

let f: JobFixture;
beforeEach(() => {
  f = jobFixture();
});
afterEach(() => f.close());

const H = 3_600_000;
const rows = () =>
  f.store.db.prepare('SELECT channel_id, status, hold_until_ms, payload FROM outbox ORDER BY id').all() as {
    channel_id: string;
    status: string;
    hold_until_ms: number | null;
    payload: string;
  }[];

const event = (type: string, url: string, at: string, extra: Partial<FeedEvent> = {}): FeedEvent => ({
  event_type: type,
  url,
  domain: new URL(url).hostname,
  h1: null,
  timestamp: at,
  sentiment: 60,
  prev_sentiment: null,
  ...extra,
});

/** Every brand on every run: these tests are about detection, not the AI Pages cadence. */
const everyBrand = { ...runOnceOptions, force: true };

describe('citations job', () => {
  it('sizes days_back from the brand’s last success and applies each channel’s events setting', async () => {
    await f.subscribe('CALL', 'b1');
    await f.subscribe('CLOST', 'b1', { settings: { ...DEFAULT_ALERT_SETTINGS, events: ['lost'] } });
    await f.ctx.jobRuns.recordBrandSuccess('citations', 'b1', f.clock.now() - 30 * H);
    f.fake.feed = () => ({
      ...emptyFeed('b1'),
      events: [
        event('lost', 'https://a.example/one', '2025-03-10T06:00:00Z'),
        event('sentiment_changed', 'https://a.example/two', '2025-03-10T06:00:00Z', {
          sentiment: 30,
          prev_sentiment: 70,
        }),
      ],
    });
    const s = await runJobOnce(f.ctx, citationsJob, runOnceOptions);
    // One feed call; the lost page's why-line lookups (bounded per run) come after it.
    expect(f.fake.calls.filter((c) => c.method === 'getCitationFeed')).toEqual([
      { method: 'getCitationFeed', params: { brandId: 'b1', daysBack: 2, limit: 500 }, lane: 'background' },
    ]);
    expect(s).toMatchObject({ alerts: 3, messages: 2 });
    const byChannel = Object.fromEntries(
      rows().map((r) => [r.channel_id, JSON.parse(r.payload).text as string]),
    );
    expect(byChannel['CALL']).toContain('2 alerts');
    expect(byChannel['CLOST']).toContain('1 alert');
    expect(byChannel['CLOST']).toContain('Cited page lost');
    expect((await f.ctx.citationState.load('b1')).get('https://a.example/one')?.presence).toBe('lost');

    // The same feed again: the state has it, nothing new is written.
    f.clock.advance(H);
    await runJobOnce(f.ctx, citationsJob, runOnceOptions);
    expect(rows()).toHaveLength(2);
    expect(f.fake.calls.at(-1)!.params['daysBack']).toBe(1);
  });

  it('baselines silently a brand that was never baselined', async () => {
    await f.subscribe('C1', 'b1');
    f.fake.feed = () => ({
      ...emptyFeed('b1'),
      events: [event('lost', 'https://a.example/one', '2025-03-10T06:00:00Z')],
    });
    expect(await runJobOnce(f.ctx, citationsJob, runOnceOptions)).toMatchObject({ status: 'ok', alerts: 0 });
    expect(f.fake.calls[0]!.params['daysBack']).toBe(30);
    expect(rows()).toEqual([]);
    expect((await f.ctx.citationState.load('b1')).get('https://a.example/one')?.presence).toBe('lost');
  });
});

describe('level jobs', () => {
  it('keep each channel’s own state and thresholds', async () => {
    await f.subscribe('CDEFAULT', 'b1');
    await f.subscribe('CFIFTY', 'b1', { settings: { ...DEFAULT_ALERT_SETTINGS, aiPagesThresholds: [50] } });
    f.fake.aiPages = () => aiPagesRecord('b1', 60);
    await runJobOnce(f.ctx, aiPagesJob, everyBrand);
    expect(rows().map((r) => r.channel_id)).toEqual(['CFIFTY']);
    f.fake.aiPages = () => aiPagesRecord('b1', 85);
    await runJobOnce(f.ctx, aiPagesJob, everyBrand);
    expect(rows().map((r) => r.channel_id)).toEqual(['CFIFTY', 'CDEFAULT']);
    expect((await f.ctx.levels.getAiPages('CFIFTY', 'b1'))?.firedLevels).toEqual([50]);
    expect((await f.ctx.levels.getAiPages('CDEFAULT', 'b1'))?.firedLevels).toEqual([80]);
  });

  it('adds each run’s days to every brand’s stored history, read for all brands at the run’s start', async () => {
    await f.subscribe('C1', 'b1');
    await f.subscribe('C2', 'b2');
    const day = (d: string, count: number) => ({ date: d, count, by_crawler: { GPTBot: count } });
    f.fake.overview = (p) =>
      overviewFromSeries(
        String(p['brandId']),
        [day(String(p['startDate']), 5), day(String(p['endDate']), 7)],
        String(p['endDate']),
      );
    await runJobOnce(f.ctx, crawlerJob, runOnceOptions);
    f.clock.advance(24 * H);
    const get = vi.spyOn(f.ctx.store.crawlerHistory, 'get');
    await runJobOnce(f.ctx, crawlerJob, runOnceOptions);
    expect(get).not.toHaveBeenCalled();
    const histories = await f.ctx.store.crawlerHistory.getMany(['b1', 'b2']);
    for (const brand of ['b1', 'b2']) {
      // The first run's first day, which only the stored history knows, kept; the second's days added.
      const history = histories.get(brand) ?? {};
      expect(Object.keys(history)).toHaveLength(15);
      expect(history).toMatchObject({ '2025-02-24': 5, '2025-03-10': 7 });
    }
  });

  it('asks the crawler overview for the last 14 whole days', async () => {
    await f.subscribe('C1', 'b1');
    await runJobOnce(f.ctx, crawlerJob, runOnceOptions);
    expect(f.fake.calls[0]).toEqual({
      method: 'getCrawlerOverview',
      params: { brandId: 'b1', rangePreset: 'custom', startDate: '2025-02-24', endDate: '2025-03-09' },
      lane: 'background',
    });
  });
});

describe('holds', () => {
  it('holds a snoozed kind apart until the snooze ends, and the rest for a mute', async () => {
    await f.subscribe('C1', 'b1');
    f.fake.aiPages = () => aiPagesRecord('b1', 85);
    const snoozeEnd = f.clock.now() + 24 * H;
    await createSqliteStore(f.store.db).snoozes.snooze({
      channelId: 'C1',
      brandId: 'b1',
      kind: 'ai_pages_threshold',
      untilMs: snoozeEnd,
      createdBy: 'U1',
      createdAtMs: f.clock.now(),
    });
    await runJobOnce(f.ctx, aiPagesJob, everyBrand);
    expect(rows()).toEqual([expect.objectContaining({ status: 'held', hold_until_ms: snoozeEnd })]);

    const muteEnd = f.clock.now() + 2 * H;
    await f.subscribe('C2', 'b1', { mutedUntilMs: muteEnd });
    await runJobOnce(f.ctx, aiPagesJob, everyBrand);
    expect(rows()[1]).toMatchObject({ channel_id: 'C2', status: 'held', hold_until_ms: muteEnd });
  });

  it('holds for quiet hours in the subscription’s time zone', async () => {
    // 10:30 UTC is 11:30 in Berlin.
    await f.subscribe('C1', 'b1', {
      settings: {
        ...DEFAULT_ALERT_SETTINGS,
        timezone: 'Europe/Berlin',
        quietHours: { start: '11:00', end: '13:00' },
      },
    });
    f.fake.aiPages = () => aiPagesRecord('b1', 85);
    await runJobOnce(f.ctx, aiPagesJob, everyBrand);
    expect(rows()[0]).toMatchObject({ status: 'held', hold_until_ms: Date.parse('2025-03-10T12:00:00Z') });
  });
});
