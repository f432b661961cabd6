/**
 * Two relays, as two replicas have them: each on its own connection to one database
 * (SQLite, and Postgres, which replicas share), with the local Slack recording when each
 * post arrived. A channel is paced once, not once per relay.
 *
 * Time is a stepping clock shared by both relays and the local Slack (no real time is
 * raced). A plain stepping clock would let one relay's sleep move time on while the other
 * relay's post is still on its way, and Slack would stamp that post late; here a sleep
 * waits until no relay holds a slot whose call has not ended, so a post takes no time and
 * Slack stamps it with the time its relay reserved the slot at.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/clock.js';
import { type LocalSlack, startLocalSlack } from '../../src/dev/local-slack/index.js';
import { createOutboxRelay, type OutboxRelay } from '../../src/jobs/outbox-relay.js';
import type { ChannelPaceRepo } from '../../src/store/channel-pace-repo.js';
import { createSqliteStore } from '../../src/store/create-sqlite-store.js';
import { migrations } from '../../src/store/migrations/index.js';
import type { OutboxRepo } from '../../src/store/outbox-repo.js';
import { createPostgresStore } from '../../src/store/postgres/create-postgres-store.js';
import { migratePostgres } from '../../src/store/postgres/migrate-postgres.js';
import type { Store } from '../../src/store/store.js';
import { usePostgresDatabase } from '../helpers/postgres-database.js';
import { type TempDb, tempDb } from '../store/temp-db.js';
import { captureLogger } from './job-fixture.js';
import { ALERTS, keyOf, OTHER, relayWebClient } from './relay-fixture.js';

const pg = usePostgresDatabase();

const PACE = 1000;
const ROWS = 40;

interface ReplicaClock extends Clock {
  set(ms: number): void;
  /** The repository, counting the slots it reserved until their call is recorded. */
  holding(repo: ChannelPaceRepo): ChannelPaceRepo;
}

/**
 * A sleep moves time forward at once, once no slot is held (see the file comment). It
 * assumes every slot reserved ends in a call (`called`), as it does for rows that need no
 * history check.
 */
function replicaClock(startMs: number): ReplicaClock {
  let now = startMs;
  let held = 0;
  /** Settles when `held` next drops to 0. */
  let idle: { promise: Promise<void>; resolve: () => void } | null = null;
  const release = () => {
    held -= 1;
    if (held === 0) {
      idle?.resolve();
      idle = null;
    }
  };
  const whenIdle = () => {
    if (!idle) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => {
        resolve = r;
      });
      idle = { promise, resolve };
    }
    return idle.promise;
  };
  return {
    now: () => now,
    async sleep(ms, signal) {
      signal?.throwIfAborted();
      const until = now + Math.max(0, ms);
      while (held > 0) await whenIdle();
      now = Math.max(now, until);
      // Let other work run, as a real sleep would.
      await new Promise((resolve) => setImmediate(resolve));
    },
    set(ms) {
      now = ms;
    },
    holding: (repo) => ({
      ...repo,
      async reserve(channelId, nowMs, paceMs) {
        // Counted from the moment it is asked: a rival refused meanwhile must not move time
        // before this answer (and the post after it) is in.
        held += 1;
        try {
          const turn = await repo.reserve(channelId, nowMs, paceMs);
          if (!turn.ok) release();
          return turn;
        } catch (err) {
          release();
          throw err;
        }
      },
      async called(channelId, atMs, paceMs) {
        try {
          await repo.called(channelId, atMs, paceMs);
        } finally {
          release();
        }
      },
    }),
  };
}

interface Replicas {
  a: OutboxRelay;
  b: OutboxRelay;
  /** The outbox as a third connection sees it. */
  outbox: OutboxRepo;
}

interface Harness {
  clock: ReplicaClock;
  slack: LocalSlack;
  store: TempDb;
  relays: OutboxRelay[];
}

let h: Harness;

beforeEach(async () => {
  const clock = replicaClock(Date.now());
  const slack = await startLocalSlack({ clock });
  slack.addChannel({ id: ALERTS, name: 'alerts', isMember: true });
  slack.addChannel({ id: OTHER, name: 'other', isMember: true });
  h = { clock, slack, store: tempDb(), relays: [] };
});

afterEach(async () => {
  await h.slack.close();
  for (const r of h.relays) await r.stop();
  h.store.close();
});

/** A relay as one replica runs it, on its own Store (its own connection or pool). */
function relay(owner: string, store: Store, o: { batchSize: number }): OutboxRelay {
  const r = createOutboxRelay(
    {
      store: { ...store, channelPace: h.clock.holding(store.channelPace) },
      web: relayWebClient(h.slack),
      clock: h.clock,
      logger: captureLogger([]),
    },
    { owner, paceMs: PACE, backoffBaseMs: 1000, ...o },
  );
  h.relays.push(r);
  return r;
}

/** Two relays on two SQLite connections to one file. */
function sqliteReplicas(o: { batchSize: number }): Replicas {
  const on = () => createSqliteStore(h.store.open(), { closesDatabase: false });
  return {
    a: relay('relay-a', on(), o),
    b: relay('relay-b', on(), o),
    outbox: on().outbox(),
  };
}

/** Two relays, each with its own pool on one Postgres database, as two replicas have them. */
async function postgresReplicas(o: { batchSize: number }): Promise<Replicas> {
  const setup = pg.pool({ max: 1 });
  await migratePostgres(setup, migrations);
  await setup.query('TRUNCATE outbox, channel_pace RESTART IDENTITY');
  const on = () => createPostgresStore(pg.pool({ max: 3 }), { closesDatabase: false });
  return {
    a: relay('relay-a', on(), o),
    b: relay('relay-b', on(), o),
    outbox: createPostgresStore(setup, { closesDatabase: false }).outbox(),
  };
}

/** Drains with both relays at once until nothing is pending, moving the clock to the next due row. */
async function deliverAll(r: Replicas): Promise<{ a: number; b: number }> {
  const sent = { a: 0, b: 0 };
  for (let round = 0; round < 100; round += 1) {
    const [ra, rb] = await Promise.all([r.a.drainOnce(), r.b.drainOnce()]);
    sent.a += ra.sent;
    sent.b += rb.sent;
    const next = await r.outbox.nextPendingAt();
    if (next === null) return sent;
    if (next > h.clock.now()) h.clock.set(next);
  }
  throw new Error('the outbox did not empty in 100 rounds');
}

const enqueue = (r: Replicas, key: string, channelId: string) =>
  r.outbox.enqueue({
    dedupeKey: key,
    channelId,
    brandId: null,
    kind: 'ops',
    payload: { text: key },
    nowMs: h.clock.now(),
  });

/** When the posts Slack accepted in `channel` arrived, in order. */
const arrivals = (channel: string) =>
  h.slack
    .callsTo('chat.postMessage')
    .filter((c) => c.args['channel'] === channel && c.status === 200)
    .map((c) => c.at);

function expectPaced(times: number[]): void {
  for (let i = 1; i < times.length; i += 1) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(PACE);
}

describe.each([
  ['SQLite', sqliteReplicas],
  ['Postgres', postgresReplicas],
] as const)('two relays on one %s database', (_name, replicas) => {
  it('deliver 40 rows to 2 channels each once, every channel paced once on the wire', async () => {
    const r = await replicas({ batchSize: 4 });
    for (let i = 0; i < ROWS; i += 1) await enqueue(r, `bulk-${i}`, i % 2 === 0 ? ALERTS : OTHER);

    // How the rows split between the relays is up to the scheduler (on a busy machine one
    // may win every slot); the next test makes the other relay post for certain.
    const sent = await deliverAll(r);
    expect(sent.a + sent.b).toBe(ROWS);

    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(ROWS);
    const keys = [ALERTS, OTHER].flatMap((c) => h.slack.messages(c).map(keyOf));
    expect(new Set(keys).size).toBe(ROWS);
    for (const channel of [ALERTS, OTHER]) {
      const times = arrivals(channel);
      expect(times).toHaveLength(ROWS / 2);
      expectPaced(times);
    }
    expect(await r.outbox.counts()).toMatchObject({ sent: ROWS, pending: 0, sending: 0 });
  });

  it('a channel one relay has just posted to waits a pace before the other relay posts there', async () => {
    const r = await replicas({ batchSize: 1 });
    await enqueue(r, 'first', ALERTS);
    expect(await r.a.drainOnce()).toMatchObject({ sent: 1 });
    await enqueue(r, 'second', ALERTS);
    expect(await r.b.drainOnce()).toMatchObject({ sent: 1 });
    expect(h.slack.messages(ALERTS).map(keyOf)).toEqual(['first', 'second']);
    expectPaced(arrivals(ALERTS));
  });

  it('a 429 one relay is given holds the channel for the other until Retry-After', async () => {
    const r = await replicas({ batchSize: 1 });
    await enqueue(r, 'limited', ALERTS);
    h.slack.rateLimit('chat.postMessage', { count: 1, retryAfterSec: 30 });
    expect(await r.a.drainOnce()).toMatchObject({ retried: 1 });
    const limitedAt = h.slack.callsTo('chat.postMessage')[0]!.at;

    // Written after the 429 and due at once, but the channel is held: b leaves it alone.
    await enqueue(r, 'after', ALERTS);
    expect(await r.b.drainOnce()).toMatchObject({ sent: 0 });
    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(1);

    await deliverAll(r);
    const times = arrivals(ALERTS);
    expect(times).toHaveLength(2);
    expect(times[0]! - limitedAt).toBeGreaterThanOrEqual(30_000);
    expectPaced(times);
    expect(h.slack.messages(ALERTS).map(keyOf).sort()).toEqual(['after', 'limited']);
  });

  it('alerts an unmute releases are posted once, grouped, when both relays release them at once', async () => {
    const r = await replicas({ batchSize: 4 });
    const ids: number[] = [];
    for (const key of ['held-1', 'held-2', 'held-3']) {
      const { id } = await r.outbox.enqueue({
        dedupeKey: key,
        channelId: ALERTS,
        brandId: 'brand-1',
        kind: 'alert',
        payload: { text: `Acme: ${key}` },
        nowMs: h.clock.now(),
        holdUntilMs: h.clock.now() + 86_400_000,
      });
      ids.push(id);
    }
    // What an unmute does on one replica; that one is nudged while the other drains anyway.
    for (const id of ids) await r.outbox.rehold(id, h.clock.now());
    const [ra, rb] = await Promise.all([r.a.drainOnce(), r.b.drainOnce()]);
    expect(ra.merged + rb.merged).toBe(3);
    await deliverAll(r);

    const posted = h.slack.messages(ALERTS);
    expect(posted).toHaveLength(1);
    expect(String(keyOf(posted[0]!))).toMatch(/^held:C0ALERTS1:brand-1:/);
    for (const key of ['held-1', 'held-2', 'held-3']) expect(posted[0]!.text).toContain(key);
    expect(await r.outbox.counts()).toMatchObject({ held: 0, pending: 0, sending: 0 });
  });
});
