/**
 * Postgres stopped under a running `serve` (its own process, on a Postgres server of the
 * test's own) and started again: the scenario in outage-harness.ts. Every command and
 * click sent meanwhile is answered within Slack's 3 s that nothing was changed, /healthz
 * stays 200 while /readyz drains the replica, and afterwards nothing refused happened
 * and the alert that fell due meanwhile is posted once.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../src/store/postgres/create-postgres-store.js';
import {
  type OutageServe,
  type RestartablePostgres,
  runOutageScenario,
  spawnReadyServe,
  startRestartablePostgres,
} from './outage-harness.js';
import { type Backends, startBackends } from './service-harness.js';

const CHANNEL = 'COUTAGEPG';
let pg: RestartablePostgres;
let backends: Backends;
let serve: OutageServe;

beforeAll(async () => {
  pg = await startRestartablePostgres();
  backends = await startBackends();
  backends.slack.addChannel({ id: CHANNEL, name: 'outage', isMember: true });
  serve = await spawnReadyServe(backends, { DATABASE_URL: pg.url });
}, 120_000);

afterAll(async () => {
  serve?.child.kill('SIGTERM');
  await backends?.slack.close();
  await backends?.sim.close();
  if (backends?.dir) rmSync(backends.dir, { recursive: true, force: true });
  await pg?.remove();
});

/** The test's own connection to the bot's database, for what a job writes and what was delivered. */
async function withStore<T>(
  fn: (store: Awaited<ReturnType<typeof openPostgresStore>>) => Promise<T>,
): Promise<T> {
  const store = await openPostgresStore(pg.url);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

describe('Postgres stopped under a running serve', () => {
  it('answers every command and click within 3 s, drains the replica, and recovers with nothing lost or doubled', async () => {
    const answered = await runOutageScenario({
      backends,
      serve,
      backend: 'postgres',
      channel: CHANNEL,
      enqueueAlert: (dedupeKey, text, sendAfterMs) =>
        withStore(async (s) => {
          await s.outbox().enqueue({
            dedupeKey,
            channelId: CHANNEL,
            brandId: null,
            kind: 'alert',
            payload: { text },
            nowMs: Date.now(),
            sendAfterMs,
          });
        }),
      outboxRow: (key) => withStore((s) => s.outbox().getByDedupeKey(key)),
      beginOutage: () => pg.stop(),
      endOutage: () => pg.start(),
    });
    expect(answered).toHaveLength(5);
  }, 90_000);
});
