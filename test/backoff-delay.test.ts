import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../src/backoff-delay.js';

describe('backoffDelay', () => {
  const o = { baseDelayMs: 250, maxDelayMs: 8000 };

  it('with full jitter draws below an exponential ceiling, capped (the API client)', () => {
    const full = { ...o, jitter: 'full' as const };
    expect([0, 1, 2, 3, 4, 5, 6].map((a) => backoffDelay(a, { ...full, random: () => 0.999999 }))).toEqual([
      249, 499, 999, 1999, 3999, 7999, 7999,
    ]);
    expect(backoffDelay(3, { ...full, random: () => 0 })).toBe(0);
    expect(backoffDelay(2, { ...full, random: () => 0.5 })).toBe(500);
  });

  it('without jitter waits the ceiling itself, so a schedule is predictable (the outbox relay)', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((a) => backoffDelay(a, o))).toEqual([
      250, 500, 1000, 2000, 4000, 8000, 8000,
    ]);
    // Never below the first step, never overflowing on a huge count.
    expect(backoffDelay(-1, o)).toBe(250);
    expect(backoffDelay(10_000, o)).toBe(8000);
  });
});
