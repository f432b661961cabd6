/**
 * Parameters that break docs/api.md's bounds are refused before anything is sent: the error
 * names the parameter, the server sees no request and the limiter is never asked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client.js';
import { InvalidParamsError } from '../../src/api/errors.js';
import { type ApiHarness, startApiHarness } from '../helpers/api-client-harness.js';
import * as fx from '../helpers/api-payloads.js';
import { sendJson } from '../helpers/http-test-server.js';

const B = fx.BRAND_ID;

type Bad = [string, (c: ApiClient) => Promise<unknown>, string, RegExp?];

const bad: Bad[] = [
  [
    'brand id not a UUID',
    (c) => c.getContentIdeas({ brandId: 'acme' }),
    'brandId',
    /brandId must be a brand id/,
  ],
  ['brand id empty', (c) => c.getAiPages({ brandId: '' }), 'brandId'],
  ['getBrands filter not a UUID', (c) => c.getBrands({ brandId: '123' }), 'brandId'],
  ['getBrands unknown include', (c) => c.getBrands({ include: ['prompts' as 'markets'] }), 'include'],
  ['ideas limit 0', (c) => c.getContentIdeas({ brandId: B, limit: 0 }), 'limit', /from 1 to 200, got 0/],
  ['ideas limit 201', (c) => c.getContentIdeas({ brandId: B, limit: 201 }), 'limit'],
  ['ideas limit fractional', (c) => c.getContentIdeas({ brandId: B, limit: 2.5 }), 'limit'],
  ['ideas offset negative', (c) => c.getContentIdeas({ brandId: B, offset: -1 }), 'offset'],
  ['ideas offset fractional', (c) => c.getContentIdeas({ brandId: B, offset: 0.5 }), 'offset'],
  ['ideas status unknown', (c) => c.getContentIdeas({ brandId: B, status: 'open' as 'active' }), 'status'],
  ['citations limit 501', (c) => c.getCitationList({ brandId: B, limit: 501 }), 'limit', /from 1 to 500/],
  ['citations limit 0 (feed)', (c) => c.getCitationFeed({ brandId: B, limit: 0 }), 'limit'],
  ['citations offset NaN', (c) => c.getCitationHeatmap({ brandId: B, offset: Number.NaN }), 'offset'],
  ['tag id not a UUID', (c) => c.getCitationList({ brandId: B, tagIds: [fx.TAG_ID, 'seo'] }), 'tagIds[1]'],
  ['days 6', (c) => c.getCitationHistory({ brandId: B, days: 6 }), 'days', /from 7 to 365/],
  ['days 366', (c) => c.getCitationHistory({ brandId: B, days: 366 }), 'days'],
  ['days_back 0', (c) => c.getCitationFeed({ brandId: B, daysBack: 0 }), 'daysBack', /from 1 to 30/],
  ['days_back 31', (c) => c.getCitationFeed({ brandId: B, daysBack: 31 }), 'daysBack'],
  [
    'sources without domain',
    (c) => c.getCitationSources({ brandId: B, domain: '' }),
    'domain',
    /must not be empty/,
  ],
  ['sources blank domain', (c) => c.getCitationSources({ brandId: B, domain: '   ' }), 'domain'],
  [
    'custom range without end',
    (c) => c.getCrawlerOverview({ brandId: B, rangePreset: 'custom', startDate: '2025-01-01' }),
    'endDate',
    /needs both startDate and endDate/,
  ],
  [
    'custom range without start',
    (c) => c.getCrawlerAccess({ brandId: B, rangePreset: 'custom', endDate: '2025-01-01' }),
    'startDate',
  ],
  [
    'custom range start after end',
    (c) =>
      c.getCrawlerOverview({
        brandId: B,
        rangePreset: 'custom',
        startDate: '2025-02-01',
        endDate: '2025-01-01',
      }),
    'startDate',
    /is after endDate/,
  ],
  [
    'custom range with a bad date',
    (c) =>
      c.getCrawlerOverview({
        brandId: B,
        rangePreset: 'custom',
        startDate: '2025-02-30',
        endDate: '2025-03-01',
      }),
    'startDate',
    /YYYY-MM-DD/,
  ],
  [
    'custom range with a non-ISO date',
    (c) =>
      c.getCrawlerLive({ brandId: B, rangePreset: 'custom', startDate: '01/02/2025', endDate: '2025-03-01' }),
    'startDate',
  ],
  [
    'dates without custom',
    (c) =>
      c.getCrawlerOverview({ brandId: B, rangePreset: '7d', startDate: '2025-01-01', endDate: '2025-01-02' }),
    'startDate',
    /only be used with rangePreset "custom"/,
  ],
  ['dates without a preset', (c) => c.getCrawlerPages({ brandId: B, endDate: '2025-01-02' }), 'endDate'],
  [
    'unknown range preset',
    (c) => c.getCrawlerOverview({ brandId: B, rangePreset: '1y' as '7d' }),
    'rangePreset',
  ],
  [
    'unknown compare_to',
    (c) => c.getCrawlerOverview({ brandId: B, compareTo: 'last' as 'none' }),
    'compareTo',
  ],
  ['crawler live limit 101', (c) => c.getCrawlerLive({ brandId: B, limit: 101 }), 'limit', /from 1 to 100/],
  ['crawler pages limit 0', (c) => c.getCrawlerPages({ brandId: B, limit: 0 }), 'limit'],
  ['crawler live view', (c) => c.getCrawlerLive({ brandId: B, view: 'tail' as 'pages' }), 'view'],
  ['crawler live http status', (c) => c.getCrawlerLive({ brandId: B, httpStatus: 999 }), 'httpStatus'],
  ['crawler pages lens', (c) => c.getCrawlerPages({ brandId: B, lens: 'x' as 'pages' }), 'lens'],
  ['crawler pages status', (c) => c.getCrawlerPages({ brandId: B, status: 'warm' }), 'status'],
  ['drawer without entity', (c) => c.getCrawlerPageDetails({ brandId: B, entityId: '' }), 'entityId'],
  ['preview-fix without finding', (c) => c.previewAccessFix({ brandId: B, findingId: ' ' }), 'findingId'],
  [
    'addMarket ISO-3',
    (c) => c.addMarket({ brandId: B, location: 'GBR' }),
    'location',
    /two-letter country code/,
  ],
  ['addMarket name', (c) => c.addMarket({ brandId: B, location: 'United Kingdom' }), 'location'],
  ['removeMarket market id', (c) => c.removeMarket({ brandId: B, marketId: 'GB' }), 'marketId', /market id/],
  ['setLocation empty country', (c) => c.setLocation({ brandId: B, country: '' }), 'country'],
  [
    'setLocation provider code',
    (c) => c.setLocation({ brandId: B, country: 'GB', providerCode: -1 }),
    'providerCode',
  ],
  ['setAliases blank alias', (c) => c.setAliases({ brandId: B, aliases: ['Acme', ' '] }), 'aliases[1]'],
  ['submit no urls', (c) => c.submitToSearch({ brandId: B, urls: [] }), 'urls', /at least 1 value/],
  [
    'submit relative url',
    (c) => c.submitToSearch({ brandId: B, urls: ['/blog'] }),
    'urls[0]',
    /absolute http\(s\)/,
  ],
  [
    'submit ftp url',
    (c) => c.submitToSearch({ brandId: B, urls: ['https://a.example/', 'ftp://a.example/x'] }),
    'urls[1]',
  ],
];

describe('ApiClient: bad parameters are refused before any request', () => {
  let h: ApiHarness;
  beforeAll(async () => {
    h = await startApiHarness((_req, res) => sendJson(res, 200, {}));
  });
  afterAll(() => h.close());

  it.each(bad)('%s', async (_name, call, param, message) => {
    const err = await call(h.client).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(InvalidParamsError);
    expect((err as InvalidParamsError).param).toBe(param);
    expect((err as InvalidParamsError).code).toBe('api_invalid_params');
    if (message) expect((err as Error).message).toMatch(message);
    expect(h.server.requests).toHaveLength(0);
    expect(h.limiter.acquired).toHaveLength(0);
  });

  it('bounds themselves are accepted', async () => {
    const c = h.client;
    await c.getContentIdeas({ brandId: B, limit: 1, offset: 0 }).catch(() => undefined);
    await c.getCitationHistory({ brandId: B, days: 365 }).catch(() => undefined);
    await c.getCitationFeed({ brandId: B, daysBack: 1, limit: 500 }).catch(() => undefined);
    await c.getCrawlerLive({ brandId: B, limit: 100 }).catch(() => undefined);
    await c
      .getCrawlerOverview({
        brandId: B,
        rangePreset: 'custom',
        startDate: '2024-02-29',
        endDate: '2024-02-29',
      })
      .catch(() => undefined);
    await c.setAliases({ brandId: B, aliases: [] }).catch(() => undefined);
    expect(h.server.requests.map((r) => r.path)).toEqual([
      '/get-content-ideas',
      '/get-citations',
      '/get-citations',
      '/crawler/live',
      '/crawler/overview',
      '/get-brands/aliases',
    ]);
  });
});
