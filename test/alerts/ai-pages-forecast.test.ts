/**
 * What an AI Pages alert says about where usage is heading: the pace of readings a day
 * apart, else the billing period's pace so far (0 at its start, a month before the reset),
 * and why not when neither can be told. Every threshold alert carries one such sentence.
 */
import { describe, expect, it } from 'vitest';
import {
  monthBeforeMs,
  outlookSentence,
  type UsageSample,
  usageOutlook,
} from '../../src/alerts/ai-pages-forecast.js';
import { DEFAULT_ALERT_SETTINGS } from '../../src/alerts/alert-settings.js';
import { detectAiPages } from '../../src/alerts/detect-ai-pages.js';

const H = 3_600_000;
const D = 24 * H;
const T = Date.parse('2025-03-10T10:30:00Z');
const RESET = '2025-04-01T00:00:00.000Z';

const at = (atMs: number, percentage: number, period = RESET): UsageSample => ({ atMs, percentage, period });
const sentence = (samples: UsageSample[]) => outlookSentence(usageOutlook(samples)!);

describe('usageOutlook', () => {
  it('uses readings a day apart: 40 → 50 % in a day reaches 100 % five days later', () => {
    const o = usageOutlook([at(T - D, 40), at(T, 50)]);
    expect(o).toMatchObject({ kind: 'full', forecast: { fullAtMs: T + 5 * D, daysBeforeReset: 16 } });
    expect(sentence([at(T - D, 40), at(T, 50)])).toBe(
      'At this pace 100 % on Mar 15, 2025, 16 days before the reset.',
    );
  });

  it('with one reading, takes the pace of the billing period so far', () => {
    // 85 % after 9.4 days of a period that began 1 Mar: about 9 points a day.
    expect(sentence([at(T, 85)])).toBe('At this pace 100 % on Mar 12, 2025, 19 days before the reset.');
    // Readings an hour apart are not a pace an alert should quote: the period's is used.
    expect(sentence([at(T - H, 84.9), at(T, 85)])).toBe(
      'At this pace 100 % on Mar 12, 2025, 19 days before the reset.',
    );
  });

  it('says how far usage gets by the reset when it stays under the limit', () => {
    // 20 % after 9.4 days: about 65 % by Apr 1.
    expect(sentence([at(T, 20)])).toBe(
      'At this pace about 65 % by the reset on Apr 1, 2025, under the limit.',
    );
    // Not growing between readings a day apart: it stays where it is.
    expect(sentence([at(T - D, 50), at(T, 50)])).toBe(
      'At this pace about 50 % by the reset on Apr 1, 2025, under the limit.',
    );
  });

  it('at 100 % says how long before the reset it was reached', () => {
    expect(sentence([at(T, 100)])).toBe('Reached 21 days before the reset.');
    expect(sentence([at(Date.parse(RESET) - H, 100)])).toBe('Reached less than a day before the reset.');
  });

  it('says why there is no forecast: too early in the period, or too few readings', () => {
    // The period began at midnight; 10.5 hours tell no pace.
    expect(usageOutlook([at(T, 30, '2025-04-10T00:00:00.000Z')])).toEqual({
      kind: 'unknown',
      reason: 'too_early',
    });
    expect(sentence([at(T, 30, '2025-04-10T00:00:00.000Z')])).toBe(
      'No forecast yet: this billing period began less than a day ago, too soon to tell a pace.',
    );
    // A reset years ahead names no period start, and one reading is no pace.
    expect(sentence([at(T, 85, '2031-01-01T00:00:00.000Z')])).toBe(
      'No forecast yet: the pace needs usage readings at least a day apart, and the bot has only just started reading them.',
    );
    expect(usageOutlook([])).toBeNull();
  });

  it('counts a month back as the calendar does', () => {
    expect(new Date(monthBeforeMs(Date.parse('2025-03-31T06:00:00Z'))).toISOString()).toBe(
      '2025-02-28T06:00:00.000Z',
    );
    expect(new Date(monthBeforeMs(Date.parse('2025-01-15T00:00:00Z'))).toISOString()).toBe(
      '2024-12-15T00:00:00.000Z',
    );
  });
});

describe('the AI Pages threshold alert', () => {
  const brand = { id: 'b1', name: 'Acme' };
  const record = (percentage: number) => ({
    brand: { id: 'b1', name: 'Acme', website: 'https://acme.example' },
    config: { enabled: true, domain: 'acme.example', platform: null, features: [], crawlers: [] },
    usage: {
      requests_this_month: percentage * 1000,
      requests_limit: 100_000,
      percentage_used: percentage,
      reset_date: RESET,
    },
  });

  it('ends with the outlook at every level, 100 % included', () => {
    for (const [percentage, expected] of [
      [85, 'At this pace 100 % on Mar 12, 2025, 19 days before the reset.'],
      [92, 'At this pace 100 % on Mar 11, 2025'],
      [100, 'Reached 21 days before the reset.'],
    ] as const) {
      const outlook = usageOutlook([at(T, percentage)]);
      const { alerts } = detectAiPages(null, record(percentage), DEFAULT_ALERT_SETTINGS, brand, T, outlook);
      expect(alerts).toHaveLength(1);
      expect(alerts[0]!.whatChanged).toContain(expected);
    }
  });

  it('says why when the pace is not known yet', () => {
    const outlook = usageOutlook([at(T, 85, '2031-01-01T00:00:00.000Z')]);
    const { alerts } = detectAiPages(null, record(85), DEFAULT_ALERT_SETTINGS, brand, T, outlook);
    expect(alerts[0]!.whatChanged).toContain('No forecast yet: the pace needs usage readings');
  });
});
