/**
 * Three replicas, one key, one Postgres: three limiters on three pools of their own (as
 * three hosts would have) send through the real ApiClient to one simulator whose limits
 * are compressed (60 per second, burst 10, 40 per second per endpoint). What reached the
 * service is counted from the simulator's request log: never more than the bucket, the
 * key's window or the endpoint's window allows, and not one 429. While every replica's
 * background lane is saturated, people's calls on one replica still go first.
 *
 * Real clock (the service and Postgres run in real time); the assertions are bounds and
 * orders, never durations a slow machine could miss.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { hashApiKey } from '../../../src/api/hash-api-key.js';
import { createRateLimiter, type SharedRateLimiter } from '../../../src/api/limiter/create-rate-limiter.js';
import type { Lane } from '../../../src/api/limiter/types.js';
import { type RunningSimulator, SEED_BRANDS, startSimulator } from '../../../src/dev/simulator/index.js';
import { migrations } from '../../../src/store/migrations/index.js';
import { migratePostgres } from '../../../src/store/postgres/migrate-postgres.js';
import { createPgBudgetStore } from '../../../src/store/postgres/pg-budget-store.js';
import { usePostgresDatabase } from '../../helpers/postgres-database.js';
import { maxInAnyWindow, worstBucketExcess } from './limiter-test-kit.js';

const pg = usePostgresDatabase();

const WINDOW_MS = 1_000;
const LIMITS = { perMinute: 60, burst: 10, perDay: null };
const ENDPOINT_PER_WINDOW = 40;

let sim: RunningSimulator | undefined;
const opened: { limiter: SharedRateLimiter; client: ApiClient }[] = [];
afterEach(async () => {
  for (const { limiter, client } of opened.splice(0)) {
    await limiter.close();
    await client.close();
  }
  await sim?.close();
  sim = undefined;
});

interface Grant {
  lane: Lane;
  queuedAt: number;
  grantedAt: number;
  /** Grants this replica had made when this call was queued (its place in the order). */
  grantsBefore: number;
  seq: number;
}

/** One replica: its own pool, limiter and API client; records the order of its grants. */
function replica(url: string, apiKey: string) {
  const pool = pg.pool({ max: 3 });
  const grants: Grant[] = [];
  let seq = 0;
  const inner = createRateLimiter({
    budget: (keyHash, config) => createPgBudgetStore(pool, keyHash, config),
    keyHash: hashApiKey(apiKey),
    plan: 'test',
    limits: LIMITS,
    windowMs: WINDOW_MS,
    endpointPerMinute: ENDPOINT_PER_WINDOW,
    pollMs: 50,
  });
  const limiter: SharedRateLimiter = {
    ...inner,
    async acquire(endpoint, lane, signal, priority) {
      const queuedAt = performance.now();
      const grantsBefore = seq;
      await inner.acquire(endpoint, lane, signal, priority);
      grants.push({ lane, queuedAt, grantedAt: performance.now(), grantsBefore, seq: seq++ });
    },
  };
  const client = new ApiClient({ baseUrl: url, apiKey, limiter, retry: { max429Retries: 0 } });
  opened.push({ limiter, client });
  return { limiter, client, grants };
}

describe('three replicas sharing one budget on Postgres', () => {
  it('never exceed the plan together, with no 429, and people still go first', async () => {
    await migratePostgres(pg.pool({ max: 1 }), migrations);
    sim = await startSimulator({
      plan: 'test',
      limits: { ...LIMITS, endpointPerMinute: ENDPOINT_PER_WINDOW, windowMs: WINDOW_MS },
    });
    const replicas = [0, 1, 2].map(() => replica(sim!.url, sim!.apiKey));
    const brandId = SEED_BRANDS.acme.id;

    // Every replica's jobs: brand lists (one endpoint window shared by all) and feeds.
    const background = replicas.flatMap(({ client }, i) =>
      Array.from({ length: 30 }, (_, k) =>
        k % 3 === 0 && i === 0
          ? client.getCitationFeed({ brandId, daysBack: 7 }, { lane: 'background' })
          : client.getBrands({}, { lane: 'background' }),
      ),
    );
    const backgroundDone = Promise.allSettled(background);

    // People on the third replica, in bursts of two, while all background lanes are full.
    const people = replicas[2]!;
    const interactive: PromiseSettledResult<unknown>[] = [];
    for (let burst = 0; burst < 4; burst++) {
      await new Promise((r) => setTimeout(r, 150));
      expect(people.limiter.state().lanes.background.queued).toBeGreaterThan(0);
      interactive.push(
        ...(await Promise.allSettled([
          people.client.getBrands({}, { lane: 'interactive' }),
          people.client.getCitationFeed({ brandId, daysBack: 7 }, { lane: 'interactive' }),
        ])),
      );
    }
    const results = await backgroundDone;

    expect([...results, ...interactive].filter((r) => r.status === 'rejected')).toEqual([]);
    const requests = sim.requests.filter((r) => r.path !== '/__control');
    expect(requests.filter((r) => r.status === 429)).toHaveLength(0);
    expect(requests).toHaveLength(90 + 8);

    // What the service saw: the key's bucket and window, and the brand list's window.
    const arrivals = requests.map((r) => r.at);
    expect(worstBucketExcess(arrivals, LIMITS.burst, LIMITS.perMinute / WINDOW_MS, 1e-6)).toBeLessThanOrEqual(
      0,
    );
    expect(maxInAnyWindow(arrivals, WINDOW_MS)).toBeLessThanOrEqual(LIMITS.burst + LIMITS.perMinute);
    const brandLists = requests.filter((r) => r.path === '/get-brands').map((r) => r.at);
    expect(maxInAnyWindow(brandLists, WINDOW_MS)).toBeLessThanOrEqual(ENDPOINT_PER_WINDOW);
    // Paced, not merely slowed: 88 tokens beyond the burst at 60 per second.
    expect(Math.max(...arrivals) - Math.min(...arrivals)).toBeGreaterThanOrEqual(
      ((98 - 10) / 60) * 1000 * 0.95,
    );

    // Interactive first: on its replica, no background call queued before a person's call
    // was granted ahead of it, beyond the one decision already with the store.
    const grants = people.grants;
    for (const call of grants.filter((g) => g.lane === 'interactive')) {
      const overtaken = grants.filter(
        (g) => g.lane === 'background' && g.seq >= call.grantsBefore && g.seq < call.seq,
      );
      expect(overtaken.length).toBeLessThanOrEqual(1);
    }
    const waits = (lane: Lane) =>
      grants
        .filter((g) => g.lane === lane)
        .map((g) => g.grantedAt - g.queuedAt)
        .sort((a, b) => a - b);
    const background50 = waits('background')[Math.floor(waits('background').length / 2)]!;
    expect(Math.max(...waits('interactive'))).toBeLessThan(background50);
  });
});
