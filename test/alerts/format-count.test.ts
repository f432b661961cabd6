import { describe, expect, it } from 'vitest';
import { formatCount, formatPercent, usagePercent } from '../../src/alerts/format-count.js';
import { formatCount as countMrkdwn } from '../../src/slack/views/format-number.js';

describe('the one number formatter', () => {
  it('groups thousands and keeps at most one decimal', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(2.46)).toBe('2.5');
    expect(formatCount(-1200)).toBe('-1,200');
    expect(formatCount(null)).toBe('—');
    expect(formatCount(Number.NaN)).toBe('—');
  });
  it('reads the same in Slack as in alerts', () => {
    for (const n of [0, 7, 12_345, 0.25, 99.95, 1_000_000.4]) expect(countMrkdwn(n)).toBe(formatCount(n));
  });
  it('rounds percentages to one decimal and usage to the whole percent reached', () => {
    expect(formatPercent(42.46)).toBe('42.5 %');
    expect(usagePercent(79.9)).toBe(79);
    expect(usagePercent(104.2)).toBe(104);
    expect(usagePercent(-1)).toBe(0);
    expect(usagePercent(undefined)).toBe(0);
  });
});
