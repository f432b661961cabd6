/**
 * The alerting part of `status` drawn from plain data (what collectStatus gathers): no
 * database, no deps, just what people read.
 */
import { describe, expect, it } from 'vitest';
import { validateBlocks } from '../../../../src/dev/local-slack/index.js';
import { schedulerStatusBlocks } from '../../../../src/slack/features/status/scheduler-status-view.js';
import type { Subscription } from '../../../../src/store/subscriptions-repo.js';
import type { SchedulerStatus } from '../../../../src/use-cases/collect-status.js';

const H = 3_600_000;
const NOW = Date.parse('2025-03-10T12:00:00Z');
const md = (blocks: unknown) => JSON.stringify(blocks);

const sub = (i: number, patch: Partial<Subscription>): Subscription =>
  ({
    id: i,
    channelId: `C${i}`,
    brandId: `b${i}`,
    brandName: `Brand <${i}>`,
    alerts: true,
    digest: true,
    pausedReason: null,
    pausedAtMs: null,
    mutedUntilMs: null,
    ...patch,
  }) as Subscription;

function status(patch: Partial<SchedulerStatus> = {}): SchedulerStatus {
  return {
    running: true,
    plan: {
      brands: 12,
      dailyLimit: 10_000,
      budgetPerDay: 8_000,
      callsPerDay: 57,
      callsPerBrandPerDay: 4.7,
      maxBrands: 1_700,
      intervalsHours: { citations: 24, crawler: 24, 'ai-pages': 24 },
      stretched: false,
      warning: null,
    },
    quotaWaitUntilMs: null,
    jobs: [
      { name: 'citations', lastRun: null, failureStreak: 0, nextRunAtMs: NOW - 1 },
      {
        name: 'crawler',
        lastRun: {
          id: 3,
          job: 'crawler',
          owner: 'serve',
          startedAtMs: NOW - H,
          finishedAtMs: NOW - H + 5_000,
          ok: false,
          error: 'overview <failed>',
          counts: { brands: 12, failed: 12 },
        },
        failureStreak: 3,
        nextRunAtMs: NOW + 12 * H,
      },
      { name: 'ai-pages', lastRun: null, failureStreak: 0, nextRunAtMs: null },
      { name: 'digest', lastRun: null, failureStreak: 0, nextRunAtMs: null },
    ],
    healthFlags: [],
    subscriptions: { total: 14, channels: 14, muted: [], paused: [] },
    ...patch,
  };
}

describe('schedulerStatusBlocks', () => {
  it('lists each job with its last and next run, and a failing streak with its last error', () => {
    const text = md(schedulerStatusBlocks(status(), NOW));
    expect(text).toContain('`citations` every 24 h: never run · next now');
    expect(text).toContain('(12 brands, 12 failed)');
    expect(text).toContain(':warning: failed 3 runs in a row; last error: overview &lt;failed&gt;');
    expect(text).toContain('`digest` daily, per subscription: never run');
    expect(text).not.toContain('scheduler is not running');
    expect(text).toContain('12 subscribed brands → about 57 API calls a day');
    expect(text).toContain('no problems reported');
  });

  it('says when the scheduler is not here, when the quota is spent, and lists at most ten of each', () => {
    const muted = Array.from({ length: 12 }, (_, i) => sub(i, { mutedUntilMs: NOW + H }));
    const paused = [sub(20, { pausedReason: 'channel_not_found', pausedAtMs: NOW - H })];
    const blocks = schedulerStatusBlocks(
      status({
        running: false,
        quotaWaitUntilMs: NOW + 2 * H,
        healthFlags: [
          {
            key: 'quota_spent',
            detail: null,
            raisedAtMs: NOW - H,
            raisedReportedAtMs: null,
            clearedAtMs: null,
            clearedReportedAtMs: null,
          },
        ],
        subscriptions: { total: 14, channels: 13, muted, paused },
      }),
      NOW,
    );
    const text = md(blocks);
    expect(text).toContain('The scheduler is not running in this process');
    expect(text).toContain(':no_entry: The daily quota is spent');
    expect(text).toContain('*Bot health*');
    expect(text).toContain('*Subscriptions:* 14 in 13 channels.');
    expect(text.match(/:no_bell:/g)).toHaveLength(10);
    expect(text).toContain('…and 2 more muted');
    // Brand names are data: escaped, never markup.
    expect(text).toContain('Brand &lt;0&gt;');
    expect(text).toContain('paused: channel_not_found');
    expect(validateBlocks(blocks, 'message')).toBeUndefined();
  });

  it("says which rule judges each subscription's crawler visits and why, brand names escaped", () => {
    const crawlerRules = [
      { brandName: 'Acme', channelId: 'C1', why: 'range: 5 weeks of history' },
      { brandName: 'Brand <b>', channelId: 'C2', why: 'threshold −40 %: only 9 days of history so far' },
    ];
    const blocks = schedulerStatusBlocks(
      status({ subscriptions: { total: 2, channels: 2, muted: [], paused: [], crawlerRules } }),
      NOW,
    );
    const text = md(blocks);
    expect(text).toContain('• *Acme* in <#C1>: range: 5 weeks of history');
    expect(text).toContain('• *Brand &lt;b&gt;* in <#C2>: threshold −40 %: only 9 days of history so far');
    expect(validateBlocks(blocks, 'message')).toBeUndefined();
  });

  it('gives the digest its next time and when it is prepared', () => {
    const next = NOW + 2 * H;
    const text = md(
      schedulerStatusBlocks(
        status({
          jobs: [
            {
              name: 'digest',
              lastRun: null,
              failureStreak: 0,
              nextRunAtMs: next,
              prepareAtMs: next - 45 * 60_000,
            },
          ],
        }),
        NOW,
      ),
    );
    const at = (ms: number) => `<!date^${ms / 1000}^`;
    expect(text).toContain(`\`digest\` daily, per subscription: never run · next ${at(next)}`);
    expect(text).toMatch(
      new RegExp(
        `next <!date\\^${next / 1000}\\^[^>]*>, prepared from <!date\\^${(next - 45 * 60_000) / 1000}\\^`,
      ),
    );
  });
});
