import { describe, expect, it } from 'vitest';
import { retryDelayFromResponse } from '../../../src/api/limiter/retry-delay-from-response.js';

describe('retryDelayFromResponse', () => {
  it('uses Retry-After first', () => {
    expect(retryDelayFromResponse({ retryAfterMs: 5_000, message: 'retry in 30 seconds' }, 60_000)).toBe(
      5_000,
    );
    expect(retryDelayFromResponse({ retryAfterMs: 0 }, 60_000)).toBe(0);
  });

  it('else reads a delay named in the text', () => {
    expect(retryDelayFromResponse({ message: 'Rate limit exceeded, retry in 30 seconds' }, 60_000)).toBe(
      30_000,
    );
    expect(retryDelayFromResponse({ message: 'Please try again in 2 minutes' }, 60_000)).toBe(120_000);
    expect(retryDelayFromResponse({ message: 'retry after 45s' }, 60_000)).toBe(45_000);
  });

  it('treats "60 per 1 minute" as a rate, not a delay, and falls back to the default', () => {
    expect(retryDelayFromResponse({ message: 'Rate limit exceeded: 60 per 1 minute' }, 60_000)).toBe(60_000);
    expect(retryDelayFromResponse({ message: 'Rate limit exceeded: 60 per 1 minute' }, 250)).toBe(250);
    expect(retryDelayFromResponse({}, 60_000)).toBe(60_000);
  });

  it('ignores a Retry-After that is not a usable number', () => {
    expect(retryDelayFromResponse({ retryAfterMs: Number.NaN, message: 'retry in 2 seconds' }, 60_000)).toBe(
      2_000,
    );
    expect(retryDelayFromResponse({ retryAfterMs: -1 }, 60_000)).toBe(60_000);
  });
});
