/**
 * A channel's alerts of a week, from what the store keeps: each grouped alert counted, kinds
 * most frequent first, and who acknowledged which posted message (once per person and
 * message; clicks in other channels or on messages of other weeks left out).
 */
import { describe, expect, it } from 'vitest';
import { weeklyAlertCounts } from '../../src/alerting/weekly-alert-counts.js';
import type { AlertAcknowledgement, ChannelAlertMessage } from '../../src/store/alert-history-queries.js';

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
