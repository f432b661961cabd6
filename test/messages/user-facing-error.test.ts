import { describe, expect, it } from 'vitest';
import {
  ConflictError,
  ForbiddenError,
  InvalidParamsError,
  InvalidResponseError,
  NetworkError,
  NoEntitlementError,
  NotFoundError,
  QuotaExhaustedError,
  RateLimitedError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
} from '../../src/api/errors.js';
import { explainError, UserError } from '../../src/messages/explain-error.js';
import { mrkdwn } from '../../src/messages/mrkdwn.js';
import { errorReply } from '../../src/messages/reply.js';

const msg = (err: unknown) => explainError(err).message;

describe('explainError', () => {
  it("says a 401 or a 403 outside AI Pages is the key's problem", () => {
    expect(msg(new UnauthorizedError('x', { status: 401 }))).toContain('VISIBILITY_API_KEY');
    expect(msg(new ForbiddenError('x', { status: 403, endpoint: 'GET /get-citations' }))).toContain(
      'The API key was rejected',
    );
  });

  it('says a 403 on an editor-only action is about the role', () => {
    const err = new ForbiddenError('x', { status: 403, endpoint: 'POST /crawler/verification-ping' });
    expect(msg(err)).toContain('editor access');
  });

  it('names the plan for AI Pages, the service message for a conflict', () => {
    expect(msg(new NoEntitlementError('x', { status: 403 }))).toBe('Your plan does not include AI Pages.');
    expect(msg(new ConflictError('x', { status: 409, serviceMessage: 'Market GB already exists' }))).toBe(
      'Market GB already exists.',
    );
    // The service's sentence already says what is missing: no "Not found:" in front of it.
    expect(msg(new NotFoundError('x', { status: 404, serviceMessage: 'No <citations>' }))).toBe(
      'No &lt;citations&gt;.',
    );
    expect(
      msg(
        new ConflictError('x', {
          status: 409,
          serviceMessage: 'Market FR already exists (parameter location)',
        }),
      ),
    ).toBe('Market FR already exists.');
  });

  it('gives rate limits, quota and outages a time to come back', () => {
    expect(msg(new RateLimitedError('x', { status: 429, retryAfterMs: 30_000 }))).toContain('in about 30 s');
    expect(msg(new QuotaExhaustedError(Date.UTC(2025, 0, 2)))).toContain('<!date^1735776000^');
    for (const err of [new ServerError('x', { status: 503 }), new NetworkError('x'), new TimeoutError('x')]) {
      expect(msg(err)).toBe('The Brand Visibility service is not answering, try again in a minute.');
    }
  });

  it('names the value of a bad parameter in words, not as the code spells it', () => {
    expect(msg(new InvalidParamsError('days', 'must be 7–365'))).toBe('The number of days must be 7–365.');
    expect(msg(new InvalidParamsError('limit', 'limit must be a whole number from 1 to 100, got 500.'))).toBe(
      'The number of rows must be a whole number from 1 to 100, got 500.',
    );
    expect(msg(new InvalidParamsError('rangePreset', 'rangePreset must be one of 24h, 7d, got "x".'))).toBe(
      'The date range must be one of 24h, 7d, got "x".',
    );
  });

  it('logs unreadable answers and unknown errors, with a reference, never the stack', () => {
    expect(explainError(new InvalidResponseError('x', { field: 'brands.0.id' })).expected).toBe(false);
    const err = new TypeError('cannot read properties of undefined');
    const facing = explainError(err);
    expect(facing.expected).toBe(false);
    expect(facing.message).toContain(facing.ref!);
    expect(JSON.stringify(errorReply(err, facing))).not.toContain('cannot read');
    expect(JSON.stringify(errorReply(err, facing))).not.toContain('.ts:');
  });

  it('passes a UserError through with its usage', () => {
    const reply = errorReply(
      new UserError('brand_missing', mrkdwn`Name a brand.`, '/visibility citations <brand>'),
    );
    expect(reply.text).toBe('Name a brand.\nUsage: /visibility citations &lt;brand&gt;');
    expect(JSON.stringify(reply.blocks)).toContain('Usage: `/visibility citations &lt;brand&gt;`');
  });
});

describe('403 outside AI Pages', () => {
  it('is the key when the text says nothing of roles or plan allowances', () => {
    const err = new ForbiddenError('Forbidden', {
      status: 403,
      endpoint: 'GET /get-brands',
      serviceMessage: 'Invalid API key',
    });
    expect(explainError(err).message).toMatch(/API key was rejected/);
    const bare = new ForbiddenError('Forbidden', { status: 403, endpoint: 'GET /get-brands' });
    expect(explainError(bare).message).toMatch(/API key was rejected/);
  });

  it('relays a role or plan-allowance refusal instead of blaming the key', () => {
    const err = new ForbiddenError('Forbidden', {
      status: 403,
      endpoint: 'POST /get-brands/markets',
      serviceMessage: 'Market limit reached for your plan (10 markets)',
    });
    const text = explainError(err).message;
    expect(text).toContain('Market limit reached for your plan');
    expect(text).not.toMatch(/API key was rejected/);
  });
});

describe('a role refusal that only names where to look', () => {
  it('says what it is about in words when the service’s text is all developer notes', () => {
    const err = new ForbiddenError('Forbidden', {
      status: 403,
      endpoint: 'POST /get-brands/markets',
      serviceMessage: 'Role viewer: see meta.role_limits on GET /get-brands.',
    });
    expect(explainError(err).message).toBe(
      'The service refused that: your role on this brand or your plan does not allow it.',
    );
  });
});
