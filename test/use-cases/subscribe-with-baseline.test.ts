/**
 * subscribeWithBaseline against the real simulator and a real SQLite file: the feed read
 * when a subscription starts alerting becomes the state later feeds are compared with, a
 * digest-only or already-alerting subscription reads nothing, and a change other channels
 * have not heard of yet is alerted to them instead of being swallowed by a newcomer.
 */

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import type { Clock } from '../../src/clock.js';
import { type RunningSimulator, SEED_BRANDS, startSimulator } from '../../src/dev/simulator/index.js';
import { createSqliteStore } from '../../src/store/create-sqlite-store.js';
import { type SubscribeDeps, subscribeWithBaseline } from '../../src/use-cases/subscribe-with-baseline.js';
import { recordingLimiter } from '../helpers/recording-limiter.js';
import { manualClock, type TempDb, tempDb } from '../store/temp-db.js';

const DAY_MS = 86_400_000;
const brand = { id: SEED_BRANDS.northwind.id, name: 'Northwind Outfitters' };

/** The simulator's "today": moved a day forward with each new snapshot, as the service's would be. */
let simOffset = 0;
const simClock: Clock = { now: () => Date.now() + simOffset, sleep: async () => {} };
let sim: RunningSimulator;
let client: ApiClient;
let store: TempDb;
let deps: SubscribeDeps;
let botClock: ReturnType<typeof manualClock>;

beforeAll(async () => {
  sim = await startSimulator({
    clock: simClock,
    limits: { perMinute: 10_000, burst: 10_000, endpointPerMinute: 10_000 },
  });
  client = new ApiClient({
    baseUrl: sim.url,
    apiKey: sim.apiKey,
    limiter: recordingLimiter(),
    clock: simClock,
  });
});
afterAll(async () => {
  await client.close();
  await sim.close();
});
beforeEach(() => {
  sim.control.reset();
  simOffset = 0;
  store = tempDb();
  botClock = manualClock(Date.now());
  deps = {
    api: client,
    store: createSqliteStore(store.db, { clock: botClock, closesDatabase: false }),
    clock: botClock,
    config: { defaultTimezone: 'UTC' },
  };
});
afterEach(() => store.close());

const feedRequests = () =>
  sim.requests.filter((r) => r.path === '/get-citations' && r.query['view'] === 'feed');

/** The outbox rows written, as (channel, text) pairs. */
function outboxRows(): Array<{ channel: string; text: string }> {
  return (
    store.db.prepare('SELECT channel_id, payload FROM outbox ORDER BY id').all() as Array<{
      channel_id: string;
      payload: string;
    }>
  ).map((r) => ({ channel: r.channel_id, text: r.payload }));
}

const subscribe = (channelId: string, kind?: 'alerts' | 'digest') =>
  subscribeWithBaseline(deps, {
    channelId,
    brand,
    kind,
    userId: 'U1',
    call: { lane: 'interactive' },
  });

function nextSnapshot(changes: Parameters<RunningSimulator['control']['advanceSnapshot']>[0]) {
  simOffset += DAY_MS;
  sim.control.advanceSnapshot(changes);
}

describe('subscribeWithBaseline', () => {
  it('reads the widest feed once, records it silently, and says what it did', async () => {
    const out = await subscribe('CALONE');
    expect(out).toMatchObject({ created: true, alerts: true, digest: true, baselined: true });
    expect(out.subscription).toMatchObject({
      channelId: 'CALONE',
      brandId: brand.id,
      alerts: true,
      digest: true,
    });
    expect(out.atMs).toBe(botClock.now());
    expect(feedRequests()).toHaveLength(1);
    expect(feedRequests()[0]!.query).toMatchObject({ brand_id: brand.id, days_back: '30' });
    // The baseline counts as the brand's citations run: the job reads from here on.
    expect(
      await createSqliteStore(store.db, { clock: botClock }).jobRuns.lastSuccess('citations', brand.id),
    ).toBe(out.atMs);
    expect(outboxRows()).toEqual([]);
  });

  it('reads nothing for a digest-only subscription, nor for one that already alerts', async () => {
    const digestOnly = await subscribe('CDIGEST', 'digest');
    expect(digestOnly).toMatchObject({ created: true, alerts: false, digest: true, baselined: false });
    expect(feedRequests()).toHaveLength(0);

    await subscribe('CALERTS', 'alerts');
    expect(feedRequests()).toHaveLength(1);
    // Adding the digest keeps the alerts and their state: no second baseline.
    const again = await subscribe('CALERTS', 'digest');
    expect(again).toMatchObject({ created: false, alerts: true, digest: true, baselined: false });
    expect(feedRequests()).toHaveLength(1);
  });

  it('baselines a paused subscription again when it is resumed', async () => {
    await subscribe('CPAUSED', 'alerts');
    await createSqliteStore(store.db).subscriptions.pauseChannel(
      'CPAUSED',
      'channel_not_found',
      botClock.now(),
    );
    const resumed = await subscribe('CPAUSED', 'alerts');
    expect(resumed).toMatchObject({ created: false, baselined: true });
    expect(resumed.subscription.pausedReason).toBeNull();
    expect(feedRequests()).toHaveLength(2);
  });

  it('alerts the channels already watching to a change before the newcomer’s baseline takes it in', async () => {
    await subscribe('CWATCH', 'alerts');
    const lost = sim.control.citationUrls(brand.id)[0]!;
    nextSnapshot({ brandId: brand.id, lose: [lost] });
    botClock.advance(DAY_MS);

    const newcomer = await subscribe('CNEW', 'alerts');
    expect(newcomer.baselined).toBe(true);
    // Since the watchers' last citations run (the first baseline): one day, not thirty.
    expect(feedRequests().at(-1)!.query).toMatchObject({ days_back: '1' });
    const rows = outboxRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.channel).toBe('CWATCH');
    expect(rows[0]!.text).toContain(lost);

    // The loss is now part of the brand's state: a third channel hears of nothing.
    await subscribe('CTHIRD', 'alerts');
    expect(outboxRows()).toHaveLength(1);
  });
});
