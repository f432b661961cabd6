import { describe, expect, it } from 'vitest';
import { limitScope, reportedRateFromMessage } from '../../../src/api/limiter/limit-scope.js';

const scaleBrandWrite = { keyPerMinute: 60, endpointPerMinute: 30 };
const scaleRead = { keyPerMinute: 60, endpointPerMinute: 60 };

describe('reportedRateFromMessage', () => {
  it('reads the rate the service names', () => {
    expect(reportedRateFromMessage('Rate limit exceeded: 60 per 1 minute')).toEqual({
      count: 60,
      periodMs: 60_000,
    });
    expect(reportedRateFromMessage('10 requests per minute')).toEqual({ count: 10, periodMs: 60_000 });
    expect(reportedRateFromMessage('limit 1000/day')).toEqual({ count: 1000, periodMs: 86_400_000 });
    expect(reportedRateFromMessage('Too many requests, retry in 30 seconds')).toBeUndefined();
    expect(reportedRateFromMessage(undefined)).toBeUndefined();
  });
});

describe('limitScope', () => {
  it("pauses only the endpoint when the limit is the endpoint's and not the key's", () => {
    expect(limitScope({ message: 'Rate limit exceeded: 30 per 1 minute' }, scaleBrandWrite)).toBe('endpoint');
    expect(limitScope({ limit: 30 }, scaleBrandWrite)).toBe('endpoint');
    // "per 2 minutes" is 15/min: neither limit we know, so the key.
    expect(limitScope({ message: '30 per 2 minutes' }, scaleBrandWrite)).toBe('key');
  });

  it("pauses the key when the limit is the key's, cannot be told apart, or is not said", () => {
    expect(limitScope({ message: 'Rate limit exceeded: 60 per 1 minute' }, scaleBrandWrite)).toBe('key');
    expect(limitScope({ message: 'Rate limit exceeded: 60 per 1 minute' }, scaleRead)).toBe('key');
    expect(limitScope({ limit: 60 }, scaleRead)).toBe('key');
    expect(limitScope({ message: 'Too many requests' }, scaleBrandWrite)).toBe('key');
    expect(limitScope({}, scaleBrandWrite)).toBe('key');
    expect(limitScope({ limit: 30 }, { keyPerMinute: 60, endpointPerMinute: null })).toBe('key');
  });

  it('recognises a daily limit', () => {
    expect(limitScope({ message: 'Rate limit exceeded: 10000 per 1 day' }, scaleRead)).toBe('day');
  });

  it('prefers the message over X-RateLimit-Limit', () => {
    expect(limitScope({ message: '60 per 1 minute', limit: 30 }, scaleBrandWrite)).toBe('key');
  });
});
