/**
 * A request-scoped API: every call reaches the limiter with the request's lane and
 * priority unless the caller set its own, including the retry after a 429.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { EndpointKey } from '../../src/api/endpoint-table.js';
import type { Lane } from '../../src/api/limiter/types.js';
import { withCallDefaults } from '../../src/api/with-call-defaults.js';
import { type ApiHarness, startApiHarness } from '../helpers/api-client-harness.js';
import * as fx from '../helpers/api-payloads.js';
import { sendJson } from '../helpers/http-test-server.js';
import { recordingLimiter } from '../helpers/recording-limiter.js';

let h: ApiHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** The recording limiter, also noting the priority each acquire carried. */
function priorityLimiter() {
  const base = recordingLimiter();
  const acquired: Array<{ endpoint: EndpointKey; lane: Lane; priority: number | undefined }> = [];
  return {
    ...base,
    acquired,
    async acquire(endpoint: EndpointKey, lane: Lane, signal?: AbortSignal, priority?: number) {
      await base.acquire(endpoint, lane, signal);
      acquired.push({ endpoint, lane, priority });
    },
  };
}

describe('withCallDefaults', () => {
  it('adds the lane and priority to every call, keeping what the caller set', async () => {
    const limiter = priorityLimiter();
    h = await startApiHarness(
      (req, res) => sendJson(res, 200, req.path === '/get-brands' ? fx.brands : fx.citationFeed),
      { limiter },
    );
    const api = withCallDefaults(h.client, { lane: 'interactive', priority: 1_000 });
    await api.getBrands();
    await api.getCitationFeed({ brandId: fx.BRAND_ID }, { lane: 'background' });
    await api.getBrands({}, { lane: undefined, priority: 500 });
    expect(limiter.acquired).toEqual([
      { endpoint: 'getBrands', lane: 'interactive', priority: 1_000 },
      { endpoint: 'getCitations', lane: 'background', priority: 1_000 },
      { endpoint: 'getBrands', lane: 'interactive', priority: 500 },
    ]);
    expect(api.limiterState()).toEqual(h.client.limiterState());
  });

  it('a retry after a 429 keeps its place: same priority', async () => {
    const limiter = priorityLimiter();
    let n = 0;
    h = await startApiHarness(
      (_req, res) =>
        n++ === 0
          ? sendJson(res, 429, { error: 'Rate limit exceeded: 60 per 1 minute' }, { 'retry-after': '1' })
          : sendJson(res, 200, fx.brands),
      { limiter },
    );
    await withCallDefaults(h.client, { priority: 42 }).getBrands();
    expect(limiter.acquired.map((a) => a.priority)).toEqual([42, 42]);
  });
});
