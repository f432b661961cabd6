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
    ['', /Give a duration/],
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
    expect(formatDuration(90 * M)).toBe('1 h 30 min');
    expect(formatDuration(10 * D)).toBe('1 w 3 d');
    expect(formatDuration(0)).toBe('0 min');
  });
});
