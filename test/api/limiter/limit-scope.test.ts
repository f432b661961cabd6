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

  it("names the key when the limit is only the key's; 'either' when the words cannot tell", () => {
    expect(limitScope({ message: 'Rate limit exceeded: 60 per 1 minute' }, scaleBrandWrite)).toBe('key');
    // On Scale a read endpoint's 60/min is the key's too: the words cannot tell.
    expect(limitScope({ message: 'Rate limit exceeded: 60 per 1 minute' }, scaleRead)).toBe('either');
    expect(limitScope({ limit: 60 }, scaleRead)).toBe('either');
    expect(limitScope({ message: 'Too many requests' }, scaleBrandWrite)).toBe('either');
    expect(limitScope({}, scaleBrandWrite)).toBe('either');
    expect(limitScope({ limit: 30 }, { keyPerMinute: 60, endpointPerMinute: null })).toBe('key');
  });

  it('recognises a daily limit', () => {
    expect(limitScope({ message: 'Rate limit exceeded: 10000 per 1 day' }, scaleRead)).toBe('day');
  });

  it('prefers the message over X-RateLimit-Limit', () => {
    expect(limitScope({ message: '60 per 1 minute', limit: 30 }, scaleBrandWrite)).toBe('key');
  });
});
