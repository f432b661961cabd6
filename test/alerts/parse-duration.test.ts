import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from '../../src/alerts/parse-duration.js';

const M = 60_000;
const H = 60 * M;
const D = 24 * H;

describe('parseDuration', () => {
  it.each([
    ['30m', 30 * M],
    ['2h', 2 * H],
    ['1d', D],
    ['1w', 7 * D],
    ['1h30m', 90 * M],
    ['1H 30M', 90 * M],
    ['1d12h', 36 * H],
    ['1m', M],
    ['30d', 30 * D],
    ['4w2d', 30 * D],
  ])('%s', (input, ms) => {
    expect(parseDuration(input)).toEqual({ ok: true, ms });
  });

  it.each([
    ['', /How long\?/],
    ['soon', /"soon" is not a duration/],
    ['30', /"30" needs a unit/],
    ['3y', /"y" is not a unit/],
    ['30m1h', /each unit once, largest first/],
    ['1h1h', /each unit once/],
    ['0m', /shortest duration is 1 minute/],
    ['31d', /longest duration is 30 days/],
    ['5w', /longest duration is 30 days/],
    ['-1h', /not a duration/],
  ])('rejects %j', (input, message) => {
    const r = parseDuration(input);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(message);
  });
});

describe('formatDuration', () => {
  it('reads naturally', () => {
    expect(formatDuration(90 * M)).toBe('1 hour 30 minutes');
    expect(formatDuration(10 * D)).toBe('1 week 3 days');
    expect(formatDuration(2 * H)).toBe('2 hours');
    expect(formatDuration(D + M)).toBe('1 day 1 minute');
    expect(formatDuration(0)).toBe('0 minutes');
  });
});

describe('durations in words', () => {
  it.each([
    ['2 hours', 2 * H],
    ['90 minutes', 90 * M],
    ['1 day', D],
    ['1 week', 7 * D],
    ['1 hour 30 minutes', 90 * M],
    ['1 hour and 30 minutes', 90 * M],
    ['2 Hours', 2 * H],
    ['3 hrs', 3 * H],
    ['45 min', 45 * M],
    ['2 days 12 hours', 60 * H],
  ])('%s', (input, ms) => {
    expect(parseDuration(input)).toEqual({ ok: true, ms });
  });

  it.each([
    ['10 fortnights', /"fortnights" is not a unit/],
    ['30 minutes 1 hour', /each unit once, largest first/],
    ['31 days', /longest duration is 30 days/],
  ])('rejects %j', (input, message) => {
    const r = parseDuration(input);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(message);
  });

  it('every refusal lists the accepted forms in words', () => {
    for (const input of ['', 'soon', '30', '10 fortnights', 'until someday']) {
      const r = parseDuration(input, { nowMs: Date.UTC(2026, 10, 24, 12), timeZone: 'UTC' });
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.error).toContain('"2 hours"');
        expect(r.error).toContain('"until tomorrow 9:00"');
        expect(r.error).toContain('"until Monday"');
      }
    }
  });
});

describe('until …, in the channel’s time zone', () => {
  // Tuesday 2026-11-24, 12:00 UTC = 13:00 in Berlin (CET, UTC+1) = 04:00 in Los Angeles (PST).
  const now = Date.UTC(2026, 10, 24, 12, 0);
  const at = (input: string, timeZone: string) => {
    const r = parseDuration(input, { nowMs: now, timeZone });
    if (!r.ok) throw new Error(r.error);
    expect(r.until).toBe(true);
    return new Date(now + r.ms).toISOString();
  };

  it('until tomorrow 9:00 is 9:00 tomorrow where the channel is', () => {
    expect(at('until tomorrow 9:00', 'Europe/Berlin')).toBe('2026-11-25T08:00:00.000Z');
    expect(at('until tomorrow 9:00', 'America/Los_Angeles')).toBe('2026-11-25T17:00:00.000Z');
    expect(at('Until Tomorrow at 9am', 'UTC')).toBe('2026-11-25T09:00:00.000Z');
  });

  it('until a weekday is that day at 09:00, next week when it is today', () => {
    expect(at('until Monday', 'Europe/Berlin')).toBe('2026-11-30T08:00:00.000Z');
    expect(at('until fri', 'UTC')).toBe('2026-11-27T09:00:00.000Z');
    expect(at('until Tuesday', 'UTC')).toBe('2026-12-01T09:00:00.000Z');
    expect(at('until Wednesday 17:30', 'UTC')).toBe('2026-11-25T17:30:00.000Z');
  });

  it('a time alone is today, or tomorrow once it has passed', () => {
    expect(at('until 17:00', 'Europe/Berlin')).toBe('2026-11-24T16:00:00.000Z');
    expect(at('until 5pm', 'UTC')).toBe('2026-11-24T17:00:00.000Z');
    // 09:00 Berlin has passed (it is 13:00 there).
    expect(at('until 9:00', 'Europe/Berlin')).toBe('2026-11-25T08:00:00.000Z');
    // It is 04:00 in Los Angeles: 9:00 there is still ahead today.
    expect(at('until 9:00', 'America/Los_Angeles')).toBe('2026-11-24T17:00:00.000Z');
  });

  it('refuses what it cannot read or what has passed', () => {
    const ctx = { nowMs: now, timeZone: 'UTC' };
    expect(parseDuration('until', ctx)).toMatchObject({ ok: false, error: /Until when\?/ });
    expect(parseDuration('until 25:00', ctx)).toMatchObject({ ok: false, error: /not a time I can read/ });
    expect(parseDuration('until 9', ctx)).toMatchObject({ ok: false, error: /not a time I can read/ });
    expect(parseDuration('until today 9:00', ctx)).toMatchObject({ ok: false, error: /already passed/ });
    // Without a channel's clock an end cannot be placed.
    expect(parseDuration('until Monday').ok).toBe(false);
  });
});
