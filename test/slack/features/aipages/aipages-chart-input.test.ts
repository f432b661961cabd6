import { describe, expect, it } from 'vitest';
import { outlookSentence, usageOutlook, withReading } from '../../../../src/alerts/ai-pages-forecast.js';
import { aiPagesChartInput } from '../../../../src/slack/features/aipages/aipages-chart-action.js';

const NOW = Date.UTC(2026, 10, 24, 12);
const usage = (resetDate: string) => ({
  requests_this_month: 4200,
  requests_limit: 10_000,
  percentage_used: 42,
  reset_date: resetDate,
});

describe('aiPagesChartInput', () => {
  it('runs from 0 on the period’s first day to today, and carries the pace on to the reset', () => {
    expect(aiPagesChartInput('Acme', usage('2026-12-04T00:00:00Z'), NOW)).toEqual({
      brand: 'Acme',
      usage: [
        { date: '2026-11-04', used: 0 },
        { date: '2026-11-24', used: 4200 },
      ],
      limit: 10_000,
      periodStart: '2026-11-04',
      resetDate: '2026-12-04',
      // 42 % in the 20.5 days since the period began, 9.5 more days at that pace: 61.46 %.
      forecast: [{ date: '2026-12-04', used: 6146 }],
    });
  });

  it('draws on to the figure the AI Pages alert states, from the readings the bot stored', () => {
    const DAY = 86_400_000;
    const reading = usage('2026-12-04T00:00:00Z');
    // The job read 30 % two days ago: 6 points a day since, faster than the period's pace.
    const stored = withReading([], { ...reading, percentage_used: 30 }, NOW - 2 * DAY);
    const input = aiPagesChartInput('Acme', reading, NOW, stored);
    // 42 % now, 9.5 days more at 6 a day: 99 % at the reset.
    expect(input?.forecast).toEqual([{ date: '2026-12-04', used: 9900 }]);
    const alert = outlookSentence(usageOutlook(withReading(stored, reading, NOW))!);
    expect(alert).toBe('At this pace about 99 % by the reset on Dec 4, 2026, under the limit.');
    // Without readings, both take the period's pace: the same 61 %.
    const periodPace = outlookSentence(usageOutlook(withReading([], reading, NOW))!);
    expect(periodPace).toContain('about 61 %');
    expect(aiPagesChartInput('Acme', reading, NOW)?.forecast?.[0]?.used).toBe(6146);
  });

  it('a month back from the 31st is the last day of the shorter month', () => {
    expect(aiPagesChartInput('Acme', usage('2026-12-31'), Date.UTC(2026, 11, 10))?.periodStart).toBe(
      '2026-11-30',
    );
  });

  it('draws nothing for figures whose period does not hold today', () => {
    expect(aiPagesChartInput('Acme', usage('2031-03-01T00:00:00Z'), NOW)).toBeNull();
    expect(aiPagesChartInput('Acme', usage('2026-11-01'), NOW)).toBeNull();
  });
});
