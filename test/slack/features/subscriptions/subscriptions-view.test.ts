/**
 * The subscriptions list within Slack's limits by construction, for any number of
 * subscriptions and any brand names: the table first (its caption saying how many it
 * shows), then each shown brand's controls while they fit, the rest changed by typing,
 * and the Share button always kept.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_SETTINGS } from '../../../../src/alerts/alert-settings.js';
import { fitMessage } from '../../../../src/messages/block-kit-limits.js';
import type { SubscriptionState } from '../../../../src/slack/features/subscriptions/subscriptions-view.js';
import { subscriptionsReply } from '../../../../src/slack/features/subscriptions/subscriptions-view.js';
import { limitProblems } from '../../views/message-limit-problems.js';

const NOW = Date.parse('2026-11-28T10:00:00Z');

function states(n: number, name: (i: number) => string): SubscriptionState[] {
  return Array.from({ length: n }, (_, i) => ({
    sub: {
      id: i,
      channelId: 'C1',
      brandId: `b1c2d3e4-5f6a-4b7c-8d9e-${String(i).padStart(12, '0')}`,
      brandName: name(i),
      alerts: true,
      digest: i % 2 === 0,
      settings: DEFAULT_ALERT_SETTINGS,
      createdBy: 'U1',
      createdAtMs: NOW - i * 86_400_000,
      pausedReason: i % 3 === 0 ? 'Slack cannot find this channel' : null,
      pausedAtMs: NOW - 3_600_000,
      mutedUntilMs: i % 2 === 1 ? NOW + 3_600_000 : null,
      lastDigestDate: null,
    },
    snoozes: [],
    held: i,
  }));
}

const tableOf = (blocks: ReadonlyArray<{ type: string }>) =>
  blocks.find((b) => b.type === 'data_table') as { caption: string; rows: unknown[][] } | undefined;
const controls = (blocks: ReadonlyArray<{ type: string; block_id?: string }>) =>
  blocks.filter((b) => b.block_id?.startsWith('vis:subs:'));

describe('the subscriptions list within Slack’s limits', () => {
  it.each([
    ['plain names', (i: number) => `Brand ${i} Analytics`],
    ['long names full of markup', (i: number) => `Brand ${i} ${'&<>*'.repeat(40)}`],
  ])('for 1 to 150 subscriptions (%s)', (_, name) => {
    for (const n of [1, 5, 20, 21, 60, 150]) {
      const reply = subscriptionsReply(states(n, name), 'UTC', NOW);
      expect(limitProblems(reply), `${n}`).toEqual([]);
      // Nothing for the central fitter to cut: the builder stayed within the limits itself.
      expect(fitMessage(reply).blocks, `${n}`).toHaveLength(reply.blocks.length);
      expect(JSON.stringify(reply.blocks), `${n}`).toContain('"action_id":"vis:share"');
      const table = tableOf(reply.blocks)!;
      const shown = table.rows.length - 1;
      expect(table.caption).toBe(
        n === shown ? `Subscriptions (${n})` : `Subscriptions (${n}), the first ${shown}`,
      );
      // Controls for the first rows shown, in their order; the others by typing.
      const ids = controls(reply.blocks).map((b) => b.block_id);
      expect(ids.length).toBeGreaterThan(0);
      expect(ids).toEqual(states(ids.length, name).map((s) => `vis:subs:${s.sub.brandId}`));
      expect(JSON.stringify(reply.blocks).includes('The others by typing'), `${n}`).toBe(ids.length < n);
    }
  });

  it('a few plain subscriptions get every control and every hold line', () => {
    const reply = subscriptionsReply(
      states(5, (i) => `Brand ${i}`),
      'UTC',
      NOW,
    );
    expect(controls(reply.blocks)).toHaveLength(5);
    const text = JSON.stringify(reply.blocks);
    expect(text).not.toContain('The others by typing');
    expect(text).not.toContain('…and more');
    expect(text.match(/\*Paused\*/g)).toHaveLength(2);
    expect(text.match(/\*Muted\* until/g)).toHaveLength(2);
  });
});
