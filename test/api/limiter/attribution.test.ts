/**
 * On Scale a read endpoint's 60/min is also the key's 60/min, so the service's words
 * cannot tell whose Remaining a response reports. The limiter asks its own send log: a
 * Remaining the endpoint's window explains must not lower the key's bucket, or the burst
 * is thrown away for every other endpoint.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { hashApiKey } from '../../../src/api/hash-api-key.js';
import { type RunningSimulator, SEED_BRANDS, startSimulator } from '../../../src/dev/simulator/index.js';
import { acquireMany, type LimiterFixture, limiterFixture, stateOf } from './limiter-test-kit.js';

let f: LimiterFixture | undefined;
let sim: RunningSimulator | undefined;
let client: ApiClient | undefined;
afterEach(async () => {
  await client?.close();
  await sim?.close();
  f?.cleanup();
  client = undefined;
  sim = undefined;
  f = undefined;
});

describe('attributing X-RateLimit-Remaining (unit)', () => {
  it("an endpoint window our log explains leaves the key's bucket alone", async () => {
    f = limiterFixture();
    const limiter = f.limiter();
    await acquireMany(limiter, f.clock, 50, 'getCitations', 'interactive');
    // 60/min endpoint, 50 sent: the service's 10 is the endpoint's, the key holds 50.
    limiter.observe('getCitations', {
      status: 200,
      limit: 60,
      remaining: 10,
      resetAtMs: f.clock.now() + 60_000,
    });
    expect((await stateOf(limiter)).tokens).toBe(50);
  });

  it('a Remaining below what our log explains is the key (another client spends it)', async () => {
    f = limiterFixture();
    const limiter = f.limiter();
    await acquireMany(limiter, f.clock, 50, 'getCitations', 'interactive');
    limiter.observe('getCitations', {
      status: 200,
      limit: 60,
      remaining: 4,
      resetAtMs: f.clock.now() + 1_000,
    });
    expect((await stateOf(limiter)).tokens).toBe(4);
  });

  it('Remaining 0 of a spent endpoint window pauses that endpoint, not the key', async () => {
    f = limiterFixture();
    const limiter = f.limiter();
    const t0 = f.clock.now();
    await acquireMany(limiter, f.clock, 60, 'getCitations', 'interactive');
    limiter.observe('getCitations', { status: 200, limit: 60, remaining: 0, resetAtMs: t0 + 60_000 });
    const state = await stateOf(limiter);
    expect(state.keyPausedUntil).toBeNull();
    expect(state.tokens).toBe(40);
    // Crawler calls still use the rest of the burst at once.
    const grants = await acquireMany(limiter, f.clock, 30, 'getCrawlerOverview', 'interactive');
    expect(grants.every((t) => t === t0)).toBe(true);
  });

  it('a 429 saying "60 per 1 minute" on a spent read window pauses only that endpoint', async () => {
    f = limiterFixture();
    const limiter = f.limiter();
    const t0 = f.clock.now();
    await acquireMany(limiter, f.clock, 60, 'getCitations', 'interactive');
    limiter.observe('getCitations', {
      status: 429,
      retryAfterMs: 20_000,
      message: 'Rate limit exceeded: 60 per 1 minute',
    });
    expect((await stateOf(limiter)).keyPausedUntil).toBeNull();
    expect((await stateOf(limiter)).endpointPauses.getCitations).toBe(t0 + 20_000);
    const grants = await acquireMany(limiter, f.clock, 20, 'getCrawlerOverview', 'interactive');
    expect(grants.every((t) => t === t0)).toBe(true);
  });

  it('the same 429 with room in the read window pauses the key', async () => {
    f = limiterFixture();
    const limiter = f.limiter();
    const t0 = f.clock.now();
    await acquireMany(limiter, f.clock, 5, 'getCitations', 'interactive');
    limiter.observe('getCitations', {
      status: 429,
      retryAfterMs: 2_000,
      message: 'Rate limit exceeded: 60 per 1 minute',
    });
    expect((await stateOf(limiter)).keyPausedUntil).toBe(t0 + 2_000);
  });
});

describe('end to end against the simulator at Scale limits', () => {
  it('50 feed calls then crawler calls: the crawler calls use the remaining burst at once, no 429', async () => {
    f = limiterFixture();
    // One virtual clock for the service and the limiter: the simulator's bucket and windows
    // move with the limiter's time, and nothing depends on real time passing.
    sim = await startSimulator({ clock: f.clock, plan: 'scale' });
    const limiter = f.limiter({ keyHash: hashApiKey(sim.apiKey) });
    client = new ApiClient({ baseUrl: sim.url, apiKey: sim.apiKey, limiter, clock: f.clock });
    const brandId = SEED_BRANDS.acme.id;
    const api = client;

    await Promise.all(
      Array.from({ length: 50 }, () => api.getCitationFeed({ brandId, daysBack: 7 }, { lane: 'background' })),
    );
    const feedDone = f.clock.now();
    // The feed's last responses said Remaining 10 (its window); the key still has ~50.
    expect((await stateOf(limiter)).tokens).toBeGreaterThanOrEqual(45);

    const crawlerGrants: number[] = [];
    await Promise.all(
      Array.from({ length: 40 }, async () => {
        await api.getCrawlerOverview({ brandId, compareTo: 'previous_period' }, { lane: 'background' });
        crawlerGrants.push(f!.clock.now());
      }),
    );
    // At 1/s the 40 calls would take ~40 s of (virtual) time; with the burst they take none.
    expect(Math.max(...crawlerGrants) - feedDone).toBeLessThan(5_000);
    expect(sim.requests.filter((r) => r.status === 429)).toHaveLength(0);
    expect(sim.requests.filter((r) => r.path === '/crawler/overview' && r.status === 200)).toHaveLength(40);
  });
});
