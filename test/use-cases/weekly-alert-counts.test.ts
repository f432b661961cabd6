/**
 * A channel's alerts of a week, from what the store keeps: each grouped alert counted, kinds
 * most frequent first, and who acknowledged which posted message (once per person and
 * message; clicks in other channels or on messages of other weeks left out).
 */
import { describe, expect, it } from 'vitest';
import type { AlertAcknowledgement, ChannelAlertMessage } from '../../src/store/alert-history-queries.js';
import type { AlertState } from '../../src/store/alert-states-repo.js';
import { weeklyAlertCounts } from '../../src/use-cases/weekly-alert-counts.js';

const message = (slackTs: string | null, alertCount: number, kinds: string[]): ChannelAlertMessage => ({
  status: slackTs ? 'sent' : 'held',
  createdAtMs: 10,
  slackTs,
  alertCount,
  kinds,
});

describe('weeklyAlertCounts', () => {
  it('counts alerts and kinds, and names who acknowledged the week’s messages', async () => {
    const acks: AlertAcknowledgement[] = [
      { channelId: 'C1', messageTs: '1.1', userId: 'U1', atMs: 20 },
      { channelId: 'C1', messageTs: '1.1', userId: 'U1', atMs: 21 },
      { channelId: 'C1', messageTs: '2.2', userId: 'U1', atMs: 22 },
      { channelId: 'C1', messageTs: '2.2', userId: 'U2', atMs: 23 },
      { channelId: 'C2', messageTs: '1.1', userId: 'U3', atMs: 24 },
      { channelId: 'C1', messageTs: '9.9', userId: 'U4', atMs: 25 },
    ];
    const asked: unknown[] = [];
    const counts = await weeklyAlertCounts(
      {
        channelAlertsBetween: async (...args) => {
          asked.push(args);
          return [
            message('1.1', 2, ['citation_lost']),
            message('2.2', 1, ['crawler_drop']),
            message(null, 3, ['citation_lost', 'citation_sentiment']),
          ];
        },
        acknowledgementsSince: async () => acks,
      },
      { channelId: 'C1', brandId: 'b1', fromMs: 0, toMs: 100 },
    );
    expect(asked).toEqual([['C1', 'b1', 0, 100]]);
    expect(counts).toEqual({
      opened: 6,
      kinds: ['citation_lost', 'citation_sentiment', 'crawler_drop'],
      acknowledgedBy: [
        { userId: 'U1', count: 2 },
        { userId: 'U2', count: 1 },
      ],
    });
  });
});

describe('weeklyAlertCounts with the alert states', () => {
  const state = (o: Partial<AlertState>): AlertState =>
    ({ brandId: 'b1', channelId: 'C1', alertCount: 1, postedAtMs: 10, assigneeId: null, ...o }) as AlertState;

  it('counts the week’s resolved alerts, the ones still open at its end, and whose they are', async () => {
    const asked: unknown[] = [];
    const counts = await weeklyAlertCounts(
      {
        channelAlertsBetween: async () => [message('1.1', 4, ['citation_lost'])],
        acknowledgementsSince: async () => [],
      },
      { channelId: 'C1', brandId: 'b1', fromMs: 0, toMs: 100 },
      {
        listResolved: async (...args) => {
          asked.push(['resolved', ...args]);
          return [state({ alertCount: 2 }), state({ brandId: 'b2', alertCount: 5 })];
        },
        listOpen: async (...args) => {
          asked.push(['open', ...args]);
          return [
            state({ alertCount: 1, assigneeId: 'U1' }),
            state({ alertCount: 3, assigneeId: 'U1' }),
            state({ alertCount: 1 }),
            // Posted after the week: not the week's.
            state({ alertCount: 9, postedAtMs: 150 }),
          ];
        },
      },
    );
    expect(asked).toEqual([
      ['resolved', 0, 100, 'C1'],
      ['open', ['b1'], 'C1'],
    ]);
    expect(counts.states).toEqual({
      resolved: 2,
      stillOpen: 5,
      openByOwner: [
        { userId: 'U1', count: 4 },
        { userId: null, count: 1 },
      ],
    });
  });
});
