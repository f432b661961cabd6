import { describe, expect, it } from 'vitest';
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
      // 210 a day for 20 days, 10 more days at that pace.
      forecast: [{ date: '2026-12-04', used: 6300 }],
    });
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
