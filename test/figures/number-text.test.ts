import { describe, expect, it } from 'vitest';
import {
  countText,
  percentChange,
  percentText,
  signedCountText,
  signedPercentText,
  usagePercent,
  usagePercentText,
} from '../../src/figures/number-text.js';
import {
  formatCount as countMrkdwn,
  formatPercent as percentMrkdwn,
  formatSignedPercent as signedPercentMrkdwn,
} from '../../src/messages/format-number.js';

describe('the one number formatter', () => {
  it('groups thousands, keeps at most one decimal and writes a real minus sign', () => {
    expect(countText(1234567)).toBe('1,234,567');
    expect(countText(2.46)).toBe('2.5');
    expect(countText(-1200)).toBe('−1,200');
    expect(countText(null)).toBe('—');
    expect(countText(Number.NaN)).toBe('—');
  });

  it('signs a change of a count, and calls zero no change', () => {
    expect(signedCountText(10)).toBe('+10');
    expect(signedCountText(-5)).toBe('−5');
    expect(signedCountText(0)).toBe('no change');
    expect(signedCountText(undefined)).toBe('—');
  });

  it('reads the same in Slack as in alerts, charts and digests', () => {
    for (const n of [0, 7, 12_345, 0.25, 99.95, 1_000_000.4, -3]) expect(countMrkdwn(n)).toBe(countText(n));
    for (const p of [0, 0.04, 0.4, 4.9, 42.5, -60, 101]) {
      expect(percentMrkdwn(p)).toBe(percentText(p));
      expect(signedPercentMrkdwn(p)).toBe(signedPercentText(p));
    }
  });
});

describe('the one percent rounding', () => {
  it('writes whole percents, keeping a tenth only below one percent', () => {
    expect(percentText(42.46)).toBe('42 %');
    expect(percentText(42.5)).toBe('43 %');
    expect(percentText(20.4)).toBe('20 %');
    expect(percentText(0.44)).toBe('0.4 %');
    expect(percentText(0)).toBe('0 %');
    expect(percentText(-4.9)).toBe('−5 %');
    expect(percentText(undefined)).toBe('—');
  });

  it('signs changes the same way and calls a change that rounds to nothing no change', () => {
    expect(signedPercentText(12.5)).toBe('+13 %');
    expect(signedPercentText(-4.9)).toBe('−5 %');
    expect(signedPercentText(-60)).toBe('−60 %');
    expect(signedPercentText(0.4)).toBe('+0.4 %');
    expect(signedPercentText(0.01)).toBe('no change');
    expect(signedPercentText(null)).toBe('no earlier figure');
  });

  it('computes a change against the earlier figure, none from zero', () => {
    expect(percentChange(428, 411)).toBeCloseTo(-3.97, 2);
    expect(percentChange(0, 5)).toBeNull();
    expect(percentChange(null, 5)).toBeNull();
  });

  it('rounds quota usage down to the whole percent reached', () => {
    expect(usagePercent(79.9)).toBe(79);
    expect(usagePercent(104.2)).toBe(104);
    expect(usagePercent(-1)).toBe(0);
    expect(usagePercent(undefined)).toBe(0);
    expect(usagePercentText(79.6)).toBe('79 %');
  });
});
