/** The small pure pieces behind the client: error-body reading, delays, headers, key hashing. */
import { describe, expect, it } from 'vitest';
import { saysAlreadyGenerating } from '../../src/api/already-generating.js';
import { extractErrorMessage } from '../../src/api/error-message.js';
import { hashApiKey } from '../../src/api/hash-api-key.js';
import { parseRateLimitHeaders } from '../../src/api/parse-rate-limit-headers.js';
import { parseRetryAfter } from '../../src/api/parse-retry-after.js';
import { retryDelayFromMessage } from '../../src/api/retry-delay-from-message.js';

describe('extractErrorMessage', () => {
  it.each([
    ['error string', '{"error":"Brand not found"}', 'Brand not found', undefined],
    [
      'error + errors',
      '{"error":"Invalid","errors":["limit too big","offset < 0"]}',
      'Invalid: limit too big; offset < 0',
      undefined,
    ],
    ['errors only', '{"errors":[{"message":"x is required","field":"x"}]}', 'x is required', undefined],
    [
      'type/code/message/param',
      '{"type":"invalid_request","code":"bad_limit","message":"Too big","param":"limit"}',
      'Too big (parameter limit)',
      'bad_limit',
    ],
    ['type only', '{"type":"rate_limit","message":"Slow down"}', 'Slow down', 'rate_limit'],
    ['detail string', '{"detail":"Not authenticated"}', 'Not authenticated', undefined],
    [
      'detail object',
      '{"detail":{"code":"forbidden","message":"Viewer cannot ping"}}',
      'Viewer cannot ping',
      'forbidden',
    ],
    [
      'detail list (FastAPI)',
      '{"detail":[{"loc":["query","brand_id"],"msg":"field required"}]}',
      'brand_id: field required',
      undefined,
    ],
    ['error object', '{"error":{"code":"E1","message":"Nope"}}', 'Nope', 'E1'],
    ['plain text', '  Bad Gateway\n', 'Bad Gateway', undefined],
    [
      'HTML title',
      '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>',
      '502 Bad Gateway',
      undefined,
    ],
    [
      'HTML h1 only',
      '<html><body><h1>Service &amp; API down</h1></body></html>',
      'Service & API down',
      undefined,
    ],
    ['JSON string', '"maintenance"', 'maintenance', undefined],
    ['empty', '', undefined, undefined],
    ['empty object', '{}', undefined, undefined],
  ])('%s', (_name, body, message, code) => {
    const info = extractErrorMessage(body);
    expect(info.message).toBe(message);
    expect(info.code).toBe(code);
  });

  it('shortens huge bodies', () => {
    expect(extractErrorMessage('x'.repeat(5000)).message!.length).toBeLessThanOrEqual(300);
  });

  it('accepts an already-parsed value', () => {
    expect(extractErrorMessage({ status: 'already_generating' })).toEqual({
      message: 'already_generating',
      code: undefined,
      status: 'already_generating',
    });
  });
});

describe('saysAlreadyGenerating', () => {
  it.each([
    ['{"status":"already_generating"}', true],
    ['{"code":"ALREADY_GENERATING","message":"busy"}', true],
    ['{"detail":"Content ideas are already being generated"}', true],
    ['{"error":"Already generating"}', true],
    ['{"status":"generating"}', false],
    ['{"error":"Market GB already exists"}', false],
  ])('%s → %s', (body, expected) => {
    expect(saysAlreadyGenerating(extractErrorMessage(body))).toBe(expected);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-12T10:00:00Z');
  it.each([
    ['30', 30_000],
    ['0', 0],
    ['1.5', 1_500],
    ['Sun, 12 Jan 2025 10:01:00 GMT', 60_000],
    ['Sun, 12 Jan 2025 09:59:00 GMT', 0],
    ['', undefined],
    ['   ', undefined],
    ['soon', undefined],
    ['-5', undefined],
    ['1 2', undefined],
    [undefined, undefined],
  ])('%j → %j', (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });
});

describe('retryDelayFromMessage', () => {
  it.each([
    ['Rate limit exceeded, retry in 30 seconds', 30_000],
    ['Too many requests. Try again in 2 minutes.', 120_000],
    ['Please retry after 45s', 45_000],
    ['Rate limit exceeded: 60 per 1 minute', undefined],
    ['Rate limit exceeded', undefined],
    [undefined, undefined],
  ])('%j → %j', (message, expected) => {
    expect(retryDelayFromMessage(message)).toBe(expected);
  });
});

describe('parseRateLimitHeaders', () => {
  const now = 1_736_676_000_000;
  it('reads the documented headers, Unix seconds → ms', () => {
    expect(
      parseRateLimitHeaders(
        {
          'x-ratelimit-limit': '60',
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': '1736676060',
          'retry-after': '60',
        },
        now,
      ),
    ).toEqual({ limit: 60, remaining: 0, resetAtMs: 1_736_676_060_000, retryAfterMs: 60_000 });
  });
  it('reads a small reset as seconds from now, and a huge one as ms', () => {
    expect(parseRateLimitHeaders({ 'x-ratelimit-reset': '42' }, now).resetAtMs).toBe(now + 42_000);
    expect(parseRateLimitHeaders({ 'x-ratelimit-reset': '1736676060000' }, now).resetAtMs).toBe(
      1_736_676_060_000,
    );
  });
  it('ignores missing and garbage values', () => {
    expect(parseRateLimitHeaders({ 'x-ratelimit-limit': 'n/a', 'x-ratelimit-remaining': '-1' }, now)).toEqual(
      {
        limit: undefined,
        remaining: undefined,
        resetAtMs: undefined,
        retryAfterMs: undefined,
      },
    );
  });
});

describe('hashApiKey', () => {
  it('is a stable 16-hex prefix of sha256 that does not contain the key', () => {
    const h = hashApiKey('sk_live_0123456789abcdefghijklmnopqrstuv');
    expect(h).toMatch(/^[0-9a-f]{16}$/);
    expect(hashApiKey('sk_live_0123456789abcdefghijklmnopqrstuv')).toBe(h);
    expect(hashApiKey('sk_live_0123456789abcdefghijklmnopqrstuw')).not.toBe(h);
  });
});
