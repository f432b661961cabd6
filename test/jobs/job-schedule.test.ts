import { describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_SETTINGS } from '../../src/alerts/alert-settings.js';
import { isPollDue, nextDigestAt, nextPollAt, slotStart } from '../../src/jobs/job-schedule.js';
import type { Subscription } from '../../src/store/subscriptions-repo.js';
import { alertHoldUntil } from '../../src/use-cases/alert-hold.js';
import { crawlerRange } from '../../src/use-cases/crawler-periods.js';
import { daysBackSince } from '../../src/use-cases/days-back.js';

const H = 3_600_000;
const D = 24 * H;
const T = Date.parse('2025-03-10T10:30:00Z');

describe('poll slots', () => {
  it('aligns slots to UTC midnight plus the job offset', () => {
    expect(new Date(slotStart(T, 6, 2 * 60_000)).toISOString()).toBe('2025-03-10T06:02:00.000Z');
    expect(new Date(slotStart(T, 1, 4 * 60_000)).toISOString()).toBe('2025-03-10T10:04:00.000Z');
    expect(new Date(slotStart(T, 24, 0)).toISOString()).toBe('2025-03-10T00:00:00.000Z');
  });

  it('is due once per slot, whoever ran it, and at once after a missed slot', () => {
    expect(isPollDue(null, T, 6, 0)).toBe(true);
    expect(isPollDue(Date.parse('2025-03-10T06:00:00Z'), T, 6, 0)).toBe(false);
    expect(isPollDue(Date.parse('2025-03-10T05:59:59Z'), T, 6, 0)).toBe(true);
    expect(nextPollAt(Date.parse('2025-03-10T07:00:00Z'), T, 6, 0)).toBe(Date.parse('2025-03-10T12:00:00Z'));
    expect(nextPollAt(Date.parse('2025-03-09T07:00:00Z'), T, 6, 0)).toBe(T);
  });

  it('names the next digest in each subscription’s own zone', () => {
    const sub = (digestTime: string, timezone: string | null, lastDigestDate: string | null = null) =>
      ({ settings: { ...DEFAULT_ALERT_SETTINGS, digestTime, timezone }, lastDigestDate }) as Subscription;
    // 10:30 UTC is 19:30 in Tokyo: today's 09:00 has passed there.
    expect(new Date(nextDigestAt([sub('09:00', 'Asia/Tokyo')], T, 'UTC')!).toISOString()).toBe(
      '2025-03-11T00:00:00.000Z',
    );
    expect(new Date(nextDigestAt([sub('11:00', null)], T, 'UTC')!).toISOString()).toBe(
      '2025-03-10T11:00:00.000Z',
    );
    expect(new Date(nextDigestAt([sub('11:00', null, '2025-03-10')], T, 'UTC')!).toISOString()).toBe(
      '2025-03-11T11:00:00.000Z',
    );
    expect(nextDigestAt([], T, 'UTC')).toBeNull();
  });
});

describe('days_back', () => {
  it('covers the time since the last success in whole days, 1 to 30', () => {
    expect(daysBackSince(T - H, T)).toBe(1);
    expect(daysBackSince(T - D, T)).toBe(1);
    expect(daysBackSince(T - D - 1, T)).toBe(2);
    expect(daysBackSince(T - 45 * D, T)).toBe(30);
    expect(daysBackSince(T + H, T)).toBe(1);
  });
});

describe('crawler range', () => {
  it('asks for the 14 whole days ending yesterday', () => {
    expect(crawlerRange(T)).toEqual({ startDate: '2025-02-24', endDate: '2025-03-09' });
  });
});

describe('alert holds', () => {
  const base = { mutedUntilMs: null, quietHours: null, timeZone: 'UTC' };
  it('delivers at once when nothing holds', () => {
    expect(alertHoldUntil(T, base)).toBeNull();
    expect(alertHoldUntil(T, { ...base, mutedUntilMs: T - H })).toBeNull();
  });

  it('holds until the last of mute and snooze, then past quiet hours in the local zone', () => {
    expect(alertHoldUntil(T, { ...base, mutedUntilMs: T + H, snoozedUntilMs: T + 2 * H })).toBe(T + 2 * H);
    const quiet = { start: '10:00', end: '12:00' };
    expect(alertHoldUntil(T, { ...base, quietHours: quiet })).toBe(Date.parse('2025-03-10T12:00:00Z'));
    // Berlin is UTC+1 in March: 10:30 UTC is 11:30 there, inside 22:00-12:00 quiet hours.
    expect(
      alertHoldUntil(T, { ...base, quietHours: { start: '22:00', end: '12:00' }, timeZone: 'Europe/Berlin' }),
    ).toBe(Date.parse('2025-03-10T11:00:00Z'));
    // A mute ending at 23:00 inside 22:00-07:00 quiet hours waits until 07:00.
    const muteEnd = Date.parse('2025-03-10T23:00:00Z');
    expect(
      alertHoldUntil(T, { ...base, mutedUntilMs: muteEnd, quietHours: { start: '22:00', end: '07:00' } }),
    ).toBe(Date.parse('2025-03-11T07:00:00Z'));
  });
});
