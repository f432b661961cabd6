import { describe, expect, it } from 'vitest';
import {
  addDays,
  calendarDayOf,
  dateOfDay,
  dayNumber,
  isCalendarDate,
  nextUtcMidnight,
  utcDay,
} from '../src/utc-days.js';

describe('utc-days', () => {
  it('names UTC days and moves across month and leap-year ends', () => {
    expect(utcDay(Date.parse('2024-02-28T23:59:59Z'))).toBe('2024-02-28');
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDays('2025-12-31', 1)).toBe('2026-01-01');
    expect(dateOfDay(dayNumber('2026-11-22T10:00:00Z'))).toBe('2026-11-22');
  });

  it('names every day the same however often and in whatever order it is asked (names are kept)', () => {
    const first = dayNumber('2026-01-01');
    const names = Array.from({ length: 3000 }, (_, i) => dateOfDay(first + i));
    expect(names[0]).toBe('2026-01-01');
    expect(names[2999]).toBe(utcDay((first + 2999) * 86_400_000));
    // Asked again after more days than are kept, and backwards: the same names.
    for (let i = 2999; i >= 0; i -= 7) expect(dateOfDay(first + i)).toBe(names[i]);
    expect(new Set(names).size).toBe(3000);
  });

  it('finds the next UTC midnight', () => {
    expect(nextUtcMidnight(Date.parse('2026-11-22T00:00:00Z'))).toBe(Date.parse('2026-11-23T00:00:00Z'));
    expect(nextUtcMidnight(Date.parse('2026-11-22T23:59:59Z'))).toBe(Date.parse('2026-11-23T00:00:00Z'));
  });

  it('accepts only real YYYY-MM-DD dates', () => {
    expect(isCalendarDate('2024-02-29')).toBe(true);
    for (const bad of ['2025-02-29', '2025-13-01', '2025-1-01', '2025-01-01T00:00', '', 'yesterday']) {
      expect(isCalendarDate(bad)).toBe(false);
    }
  });

  it('reads the day a date or an ISO time starts with, and none from anything else', () => {
    expect(calendarDayOf('2026-11-28')).toBe('2026-11-28');
    expect(calendarDayOf('2026-11-28T09:00:00Z')).toBe('2026-11-28');
    for (const none of [null, undefined, '', 'yesterday', '2025-02-30', '28/11/2026']) {
      expect(calendarDayOf(none)).toBeNull();
    }
  });
});
