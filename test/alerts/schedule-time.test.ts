import { describe, expect, it } from 'vitest';
import { digestDue } from '../../src/alerts/digest-due.js';
import { quietHoursEndMs } from '../../src/alerts/quiet-hours.js';
import { zonedParts, zonedTimeToUtcMs } from '../../src/alerts/zoned-time.js';

const at = (iso: string) => Date.parse(iso);

describe('zoned time', () => {
  it('reads local wall-clock time', () => {
    expect(zonedParts(at('2025-03-01T23:30:00Z'), 'Europe/Berlin')).toEqual({
      date: '2025-03-02',
      minutes: 30,
    });
    expect(zonedParts(at('2025-03-01T23:30:00Z'), 'UTC')).toEqual({
      date: '2025-03-01',
      minutes: 23 * 60 + 30,
    });
  });

  it('finds the instant of a local time on both sides of DST', () => {
    expect(zonedTimeToUtcMs('2025-03-29', '09:00', 'Europe/Berlin')).toBe(at('2025-03-29T08:00:00Z'));
    expect(zonedTimeToUtcMs('2025-03-31', '09:00', 'Europe/Berlin')).toBe(at('2025-03-31T07:00:00Z'));
    expect(zonedTimeToUtcMs('2025-11-03', '09:00', 'America/New_York')).toBe(at('2025-11-03T14:00:00Z'));
  });
});

describe('quietHoursEndMs', () => {
  const quiet = { start: '22:00', end: '07:00' };
  it('is null outside quiet hours or without them', () => {
    expect(quietHoursEndMs(at('2025-03-01T12:00:00Z'), quiet, 'UTC')).toBeNull();
    expect(quietHoursEndMs(at('2025-03-01T23:00:00Z'), null, 'UTC')).toBeNull();
  });
  it('ends the next morning when it wraps midnight', () => {
    expect(quietHoursEndMs(at('2025-03-01T23:00:00Z'), quiet, 'UTC')).toBe(at('2025-03-02T07:00:00Z'));
    expect(quietHoursEndMs(at('2025-03-02T03:00:00Z'), quiet, 'UTC')).toBe(at('2025-03-02T07:00:00Z'));
  });
  it('uses the subscription time zone', () => {
    // 21:30 UTC is 22:30 in Berlin (winter): quiet until 07:00 Berlin = 06:00 UTC.
    expect(quietHoursEndMs(at('2025-03-01T21:30:00Z'), quiet, 'Europe/Berlin')).toBe(
      at('2025-03-02T06:00:00Z'),
    );
  });
  it('handles a daytime window', () => {
    const lunch = { start: '12:00', end: '13:30' };
    expect(quietHoursEndMs(at('2025-03-01T12:10:00Z'), lunch, 'UTC')).toBe(at('2025-03-01T13:30:00Z'));
    expect(quietHoursEndMs(at('2025-03-01T13:30:00Z'), lunch, 'UTC')).toBeNull();
  });
});

describe('digestDue', () => {
  it('is due at or after the digest time, once per local date', () => {
    expect(digestDue(at('2025-03-01T08:59:00Z'), '09:00', 'UTC', '2025-02-28')).toBeNull();
    expect(digestDue(at('2025-03-01T09:00:00Z'), '09:00', 'UTC', '2025-02-28')).toEqual({
      date: '2025-03-01',
      scheduledAtMs: at('2025-03-01T09:00:00Z'),
      late: false,
    });
    expect(digestDue(at('2025-03-01T09:05:00Z'), '09:00', 'UTC', '2025-03-01')).toBeNull();
  });

  it('a missed digest is sent once, marked late, and only the latest one', () => {
    const due = digestDue(at('2025-03-05T08:00:00Z'), '09:00', 'UTC', '2025-03-01');
    expect(due).toMatchObject({ date: '2025-03-04', late: true });
  });

  it('never sends a digest scheduled before the subscription existed', () => {
    const created = at('2025-03-01T10:00:00Z');
    expect(digestDue(at('2025-03-01T11:00:00Z'), '09:00', 'UTC', null, created)).toBeNull();
    expect(digestDue(at('2025-03-02T09:00:00Z'), '09:00', 'UTC', null, created)).toMatchObject({
      date: '2025-03-02',
    });
  });

  it('follows the subscription time zone', () => {
    // 08:30 UTC = 09:30 in Berlin.
    expect(digestDue(at('2025-03-01T08:30:00Z'), '09:00', 'Europe/Berlin', '2025-02-28')).toMatchObject({
      date: '2025-03-01',
      late: false,
    });
  });
});
