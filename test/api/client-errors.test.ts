/**
 * Status → coded error class, with the human message taken from each error-body shape of
 * docs/api.md §7; already_generating in both forms; the /prism fallback; broken responses;
 * and the key never leaking into errors or logs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiError,
  BadRequestError,
  ConflictError,
  ForbiddenError,
  InvalidResponseError,
  NoEntitlementError,
  NotFoundError,
  RateLimitedError,
  ServerError,
  UnauthorizedError,
} from '../../src/api/errors.js';
import { type ApiHarness, apiFailure as failure, startApiHarness } from '../helpers/api-client-harness.js';
import * as fx from '../helpers/api-payloads.js';
import { sendJson, sendText, type TestHandler } from '../helpers/http-test-server.js';

const B = fx.BRAND_ID;
const CODES: Record<string, string> = {
  BadRequestError: 'api_bad_request',
  UnauthorizedError: 'api_unauthorized',
  ForbiddenError: 'api_forbidden',
  NotFoundError: 'api_not_found',
  ConflictError: 'api_conflict',
  RateLimitedError: 'api_rate_limited',
  ServerError: 'api_server',
};
const NO_RETRY = { retry: { maxRetries: 0, max429Retries: 0 } };

/** The three error-body shapes docs/api.md §7 lists, all saying `text`. */
const shapes = (text: string) => ({
  'error/errors': { error: text, errors: [] },
  'type/code/message/param': { type: 'invalid_request_error', code: 'some_code', message: text, param: null },
  'detail string': { detail: text },
  'detail object': { detail: { code: 'some_code', message: text } },
});

describe('ApiClient: status → error class', () => {
  let h: ApiHarness;
  let respond: TestHandler;
  beforeAll(async () => {
    h = await startApiHarness((req, res, raw) => respond(req, res, raw), NO_RETRY);
  });
  afterAll(() => h.close());

  const statuses = [
    [400, BadRequestError],
    [401, UnauthorizedError],
    [403, ForbiddenError],
    [404, NotFoundError],
    [409, ConflictError],
    [422, BadRequestError],
    [429, RateLimitedError],
    [500, ServerError],
    [503, ServerError],
  ] as const;

  for (const [status, cls] of statuses) {
    for (const [shape, body] of Object.entries(shapes(`Brand says no (${status})`))) {
      it(`${status} with a ${shape} body → ${cls.name}`, async () => {
        respond = (_req, res) => sendJson(res, status, body);
        const err = await failure(h.client.getBrands());
        expect(err).toBeInstanceOf(cls);
        expect(err.code).toBe(CODES[cls.name]);
        expect(err.status).toBe(status);
        expect(err.endpoint).toBe('GET /get-brands');
        expect(err.serviceMessage).toBe(`Brand says no (${status})`);
        expect(err.message).toContain(`Brand says no (${status})`);
        expect(err.message).toContain(`HTTP ${status} from GET /get-brands`);
      });
    }
  }

  it('folds the `errors` list into the message', async () => {
    respond = (_req, res) =>
      sendJson(res, 400, {
        error: 'Validation failed',
        errors: [{ field: 'limit', message: 'must be ≤ 200' }],
      });
    const err = await failure(h.client.getBrands());
    expect(err.message).toBe(
      'The service refused the request: Validation failed: limit: must be ≤ 200 (HTTP 400 from GET /get-brands)',
    );
  });

  it('names the param of the type/code/message/param shape', async () => {
    respond = (_req, res) =>
      sendJson(res, 400, {
        type: 'invalid_request_error',
        code: 'missing',
        message: 'Missing value',
        param: 'domain',
      });
    const err = await failure(h.client.getCitationList({ brandId: B }));
    expect(err.serviceMessage).toBe('Missing value (parameter domain)');
  });

  it('uses the 429 body of docs/api.md §7 and keeps Retry-After', async () => {
    respond = (_req, res) =>
      sendJson(res, 429, { error: 'Rate limit exceeded: 60 per 1 minute' }, { 'retry-after': '30' });
    const err = await failure(h.client.getBrands());
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as RateLimitedError).retryAfterMs).toBe(30_000);
    expect(err.message).toBe(
      'The API rate limit was hit: Rate limit exceeded: 60 per 1 minute (HTTP 429 from GET /get-brands)',
    );
  });

  it('reads a 429 delay from the message when Retry-After is missing', async () => {
    respond = (_req, res) => sendJson(res, 429, { error: 'Too many requests, retry in 12 seconds' });
    const err = (await failure(h.client.getBrands())) as RateLimitedError;
    expect(err.retryAfterMs).toBe(12_000);
  });

  it('reads plain-text and HTML bodies', async () => {
    respond = (_req, res) => sendText(res, 502, 'upstream connect error or disconnect/reset before headers');
    let err = await failure(h.client.getBrands());
    expect(err).toBeInstanceOf(ServerError);
    expect(err.serviceMessage).toBe('upstream connect error or disconnect/reset before headers');

    respond = (_req, res) =>
      sendText(
        res,
        503,
        '<html><head><title>503 Service Temporarily Unavailable</title></head><body><h1>503</h1></body></html>',
        'text/html',
      );
    err = await failure(h.client.getBrands());
    expect(err.serviceMessage).toBe('503 Service Temporarily Unavailable');
    expect(err.message).toBe(
      'The Brand Visibility service failed: 503 Service Temporarily Unavailable (HTTP 503 from GET /get-brands)',
    );
  });

  it('says something useful for an empty error body', async () => {
    respond = (_req, res) => res.writeHead(404).end();
    const err = await failure(h.client.getBrands());
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err.serviceMessage).toBeUndefined();
    expect(err.message).toBe('Not found. (HTTP 404 from GET /get-brands)');
  });

  it('403 on AI Pages is NoEntitlementError; elsewhere ForbiddenError', async () => {
    respond = (_req, res) => sendJson(res, 403, { detail: 'AI Pages requires a paid plan' });
    const err = await failure(h.client.getAiPages({ brandId: B }));
    expect(err).toBeInstanceOf(NoEntitlementError);
    expect(err.message).toBe(
      'Your plan does not include AI Pages: AI Pages requires a paid plan (HTTP 403 from GET /ai-pages)',
    );
    expect(await failure(h.client.verificationPing({ brandId: B }))).toBeInstanceOf(ForbiddenError);
  });

  it('a 409 on addMarket is a ConflictError with the service text', async () => {
    respond = (_req, res) => sendJson(res, 409, { error: 'Market GB already exists' });
    const err = await failure(h.client.addMarket({ brandId: B, location: 'GB' }));
    expect(err).toBeInstanceOf(ConflictError);
    expect(err.message).toBe('Conflict: Market GB already exists (HTTP 409 from POST /get-brands/markets)');
  });
});

describe('ApiClient: refreshContentIdeas already_generating', () => {
  let h: ApiHarness;
  let respond: TestHandler;
  beforeAll(async () => {
    h = await startApiHarness((req, res, raw) => respond(req, res, raw), NO_RETRY);
  });
  afterAll(() => h.close());

  it('as a 200 {"status":"already_generating"}', async () => {
    respond = (_req, res) => sendJson(res, 200, { status: 'already_generating' });
    await expect(h.client.refreshContentIdeas({ brandId: B })).resolves.toEqual({
      status: 'already_generating',
      message: null,
    });
  });

  it('as a 200 whose message says it', async () => {
    respond = (_req, res) =>
      sendJson(res, 200, { status: 'ok', message: 'Content ideas are already being generated' });
    await expect(h.client.refreshContentIdeas({ brandId: B })).resolves.toMatchObject({
      status: 'already_generating',
    });
  });

  const errorBodies: Array<[string, number, unknown]> = [
    ['409 error/errors', 409, { error: 'already_generating', errors: [] }],
    ['409 error text', 409, { error: 'Content ideas are already generating for this brand' }],
    [
      '409 type/code/message',
      409,
      { type: 'conflict', code: 'already_generating', message: 'A run is in progress' },
    ],
    ['409 detail string', 409, { detail: 'already_generating' }],
    ['409 detail object', 409, { detail: { code: 'already_generating', message: 'Generation in progress' } }],
    ['400 with status field', 400, { status: 'already_generating', message: 'Please wait' }],
  ];
  it.each(errorBodies)('as %s', async (_name, status, body) => {
    respond = (_req, res) => sendJson(res, status, body);
    const result = await h.client.refreshContentIdeas({ brandId: B });
    expect(result.status).toBe('already_generating');
  });

  it('a 409 that says something else stays a ConflictError', async () => {
    respond = (_req, res) => sendJson(res, 409, { error: 'Brand is archived' });
    expect(await failure(h.client.refreshContentIdeas({ brandId: B }))).toBeInstanceOf(ConflictError);
  });

  it('a 403 stays a ForbiddenError even if it mentions generating', async () => {
    respond = (_req, res) => sendJson(res, 403, { detail: 'already_generating' });
    expect(await failure(h.client.refreshContentIdeas({ brandId: B }))).toBeInstanceOf(ForbiddenError);
  });
});

describe('ApiClient: /prism fallback', () => {
  let h: ApiHarness;
  let aiPagesStatus: number;
  beforeAll(async () => {
    h = await startApiHarness((req, res) => {
      if (req.path === '/prism') return sendJson(res, 200, { ...fx.aiPages, config: null, usage: null });
      return sendJson(res, aiPagesStatus, aiPagesStatus === 200 ? fx.aiPages : { detail: 'nope' });
    }, NO_RETRY);
  });
  afterAll(() => h.close());

  it('falls back to GET /prism only when /ai-pages is 404', async () => {
    aiPagesStatus = 404;
    const start = h.server.requests.length;
    const record = await h.client.getAiPages({ brandId: B });
    expect(record.config).toBeNull();
    expect(record.usage).toBeNull();
    const sent = h.server.requests.slice(start);
    expect(sent.map((r) => `${r.method} ${r.path}?${new URLSearchParams(r.query)}`)).toEqual([
      `GET /ai-pages?brand_id=${B}`,
      `GET /prism?brand_id=${B}`,
    ]);
    expect(h.limiter.acquired.slice(-2).map((a) => a.endpoint)).toEqual(['getAiPages', 'getPrism']);
  });

  it.each([
    [403, NoEntitlementError],
    [500, ServerError],
    [401, UnauthorizedError],
  ])('does not fall back on %i', async (status, cls) => {
    aiPagesStatus = status;
    const start = h.server.requests.length;
    expect(await failure(h.client.getAiPages({ brandId: B }))).toBeInstanceOf(cls);
    expect(h.server.requests.slice(start).map((r) => r.path)).toEqual(['/ai-pages']);
  });
});

describe('ApiClient: broken responses', () => {
  let h: ApiHarness;
  let respond: TestHandler;
  beforeAll(async () => {
    h = await startApiHarness((req, res, raw) => respond(req, res, raw), NO_RETRY);
  });
  afterAll(() => h.close());

  it('malformed JSON → InvalidResponseError', async () => {
    respond = (_req, res) => sendText(res, 200, '{"brands": [', 'application/json');
    const err = await failure(h.client.getBrands());
    expect(err).toBeInstanceOf(InvalidResponseError);
    expect(err.message).toBe('GET /get-brands returned a body that is not valid JSON.');
  });

  it('an HTML page with 200 → InvalidResponseError', async () => {
    respond = (_req, res) => sendText(res, 200, '<html>maintenance</html>', 'text/html');
    expect(await failure(h.client.getBrands())).toBeInstanceOf(InvalidResponseError);
  });

  it('an empty 200 where JSON is expected → InvalidResponseError', async () => {
    respond = (_req, res) => res.writeHead(200).end();
    const err = await failure(h.client.getBrands());
    expect(err).toBeInstanceOf(InvalidResponseError);
    expect(err.message).toContain('empty body');
  });

  it('a schema break names the failing field', async () => {
    const idea = fx.contentIdeas.ideas[0]!;
    const ideas = [idea, idea, idea, { ...idea, opportunity_score: 'high' }];
    respond = (_req, res) => sendJson(res, 200, { ...fx.contentIdeas, ideas });
    const err = (await failure(h.client.getContentIdeas({ brandId: B }))) as InvalidResponseError;
    expect(err).toBeInstanceOf(InvalidResponseError);
    expect(err.field).toBe('ideas.3.opportunity_score');
    expect(err.message).toContain('ideas.3.opportunity_score');
    expect(err.message).toContain('GET /get-content-ideas');
  });

  // Feed events go through zod's compiled object parser (src/api/schemas/compiled-object.ts):
  // what it refuses, and how it names the field, is what z.looseObject did.
  const feedWith = (bad: Record<string, unknown>) => {
    const [first, second] = fx.citationFeed.events;
    return { ...fx.citationFeed, events: [first, second, { ...second, ...bad }] };
  };
  for (const [what, bad, field, expected] of [
    ['a url that is a number', { url: 42 }, 'events.2.url', 'expected string'],
    ['a missing timestamp', { timestamp: undefined }, 'events.2.timestamp', 'expected string'],
    ['a sentiment as text', { sentiment: '80' }, 'events.2.sentiment', 'expected number'],
    ['prompts holding a number', { prompts: ['a', 7] }, 'events.2.prompts.1', 'expected string'],
  ] as const) {
    it(`a feed event with ${what} is refused and named`, async () => {
      respond = (_req, res) => sendJson(res, 200, feedWith(bad));
      const err = (await failure(h.client.getCitationFeed({ brandId: B }))) as InvalidResponseError;
      expect(err).toBeInstanceOf(InvalidResponseError);
      expect(err.field).toBe(field);
      expect(err.message).toContain(`${field}: ${expected}`);
    });
  }

  it('a feed event that is not an object is refused', async () => {
    respond = (_req, res) =>
      sendJson(res, 200, { ...fx.citationFeed, events: [fx.citationFeed.events[0], 'x'] });
    const err = (await failure(h.client.getCitationFeed({ brandId: B }))) as InvalidResponseError;
    expect(err.field).toBe('events.1');
    expect(err.message).toContain('expected object');
  });

  it('feed events keep their unknown fields and gain no absent ones', async () => {
    respond = (_req, res) => sendJson(res, 200, feedWith({ rank: 3 }));
    const feed = await h.client.getCitationFeed({ brandId: B });
    expect(feed.events[2]).toEqual({ ...fx.citationFeed.events[1], rank: 3 });
    expect(Object.keys(feed.events[1]!)).toEqual(Object.keys(fx.citationFeed.events[1]!));
  });

  it('an out-of-range value is a schema break too', async () => {
    respond = (_req, res) =>
      sendJson(res, 200, { ...fx.aiPages, usage: { ...fx.aiPages.usage, percentage_used: 140 } });
    const err = (await failure(h.client.getAiPages({ brandId: B }))) as InvalidResponseError;
    expect(err.field).toBe('usage.percentage_used');
  });

  it('unknown fields are tolerated and kept', async () => {
    respond = (_req, res) => sendJson(res, 200, { ...fx.brands, next_page: 'x' });
    const result = await h.client.getBrands();
    expect((result as Record<string, unknown>)['next_page']).toBe('x');
  });

  it('undocumented crawler payloads pass through as they are', async () => {
    const payload = { rows: [{ a: 1 }], meta: { total: 1, limit: 25, next_cursor: 'n2' }, extra: [1, 2] };
    respond = (_req, res) => sendJson(res, 200, payload);
    await expect(h.client.getCrawlerLive({ brandId: B })).resolves.toEqual(payload);
  });

  it('a crawler endpoint answering a non-object is still an InvalidResponseError', async () => {
    respond = (_req, res) => sendJson(res, 200, [1, 2]);
    expect(await failure(h.client.getCrawlerLive({ brandId: B }))).toBeInstanceOf(InvalidResponseError);
  });
});

describe('ApiClient: the API key never leaks', () => {
  it('not in error messages nor in any log line, even when the service echoes it', async () => {
    const echo: TestHandler = (req, res) => {
      const auth = String(req.headers.authorization);
      const n = Number(req.query['brand_id']?.slice(-1)) || 0;
      const bodies = [
        [401, { error: `Invalid key ${auth}`, errors: [auth] }],
        [
          403,
          { type: 'auth', code: fx.API_KEY, message: `Key ${fx.API_KEY} revoked`, param: 'authorization' },
        ],
        [400, { detail: { code: 'bad', message: `got header ${auth}` } }],
        [500, `<html><title>Error for ${auth}</title></html>`],
        [429, { error: `Rate limit exceeded for ${fx.API_KEY}: 60 per 1 minute` }],
        [200, 'not json ' + auth],
      ] as const;
      const [status, body] = bodies[n % bodies.length]!;
      if (typeof body === 'string') return sendText(res, status, body, 'text/html');
      return sendJson(res, status, body);
    };
    const h = await startApiHarness(echo, { retry: { maxRetries: 1, max429Retries: 1, baseDelayMs: 1 } });
    try {
      const errors: ApiError[] = [];
      for (let i = 0; i < 6; i++) {
        const brandId = `${B.slice(0, -1)}${i}`;
        errors.push(await failure(h.client.getBrands({ brandId })));
      }
      expect(errors.map((e) => e.constructor.name)).toEqual([
        'UnauthorizedError',
        'ForbiddenError',
        'BadRequestError',
        'ServerError',
        'RateLimitedError',
        'InvalidResponseError',
      ]);
      expect(h.logs.length).toBeGreaterThan(0);
      const secret = fx.API_KEY;
      for (const err of errors) {
        const chain: unknown[] = [];
        for (let e: unknown = err; e instanceof Error; e = e.cause)
          chain.push(e.message, e.stack, JSON.stringify(e));
        const text = [err.serviceMessage, ...chain].join('\n');
        expect(text).not.toContain(secret);
      }
      for (const line of h.logs) expect(line).not.toContain(secret);
      for (const o of h.limiter.observed) expect(JSON.stringify(o)).not.toContain(secret);
    } finally {
      await h.close();
    }
  });
});
