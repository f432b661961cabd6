/**
 * The outbox relay against the real local Slack over HTTP, on a real SQLite file. One
 * stepping clock (job-fixture's manualClock) is shared by the relay and the local Slack:
 * `sleep` moves it forward at once, so pacing and Retry-After are exact and instant, and
 * the recorded call times show them.
 */
import { WebClient } from '@slack/web-api';
import { afterEach, beforeEach } from 'vitest';
import { type LocalSlack, startLocalSlack } from '../../src/dev/local-slack/index.js';
import {
  createOutboxRelay,
  createRelayContext,
  type OutboxRelay,
  type OutboxRelayOptions,
  type RelayDeps,
} from '../../src/jobs/outbox-relay.js';
import type { RelayContext } from '../../src/jobs/relay/relay-context.js';
import type { Db } from '../../src/store/open-database.js';
import type { NewOutboxMessage, OutboxRepo } from '../../src/store/outbox-repo.js';
import type { SubscriptionsRepo } from '../../src/store/subscriptions-repo.js';
import { quietLogger } from '../dev/local-slack/local-slack-fixture.js';
import { type ManualClock, manualClock } from '../helpers/manual-clock.js';
import { type TempDb, tempDb } from '../store/temp-db.js';
import { captureLogger, type LogLine } from './job-fixture.js';

/** A WebClient as the relay wants it: 429s returned, no client retries, a short timeout. */
export function relayWebClient(slack: LocalSlack, timeoutMs = 5000): WebClient {
  return new WebClient(slack.botToken, {
    slackApiUrl: slack.url,
    rejectRateLimitedCalls: true,
    retryConfig: { retries: 0 },
    timeout: timeoutMs,
    logger: quietLogger,
  });
}

export interface RelayFixture {
  slack: LocalSlack;
  clock: ManualClock;
  store: TempDb;
  db: Db;
  outbox: OutboxRepo;
  subscriptions: SubscriptionsRepo;
  logs: LogLine[];
  relay(overrides?: Partial<OutboxRelayOptions & Pick<RelayDeps, 'store' | 'web' | 'database'>>): OutboxRelay;
  /** One relay's shared state, as its stages get it, on the same store, Slack and clock. */
  context(overrides?: Partial<OutboxRelayOptions>): RelayContext;
  enqueue(m: Partial<NewOutboxMessage> & { dedupeKey: string }): Promise<number>;
  close(): Promise<void>;
}

export const ALERTS = 'C0ALERTS1';
export const OTHER = 'C0OTHER01';

export async function startRelayFixture(): Promise<RelayFixture> {
  const clock = manualClock(Date.now());
  const slack = await startLocalSlack({ clock });
  slack.addChannel({ id: ALERTS, name: 'alerts', isMember: true });
  slack.addChannel({ id: OTHER, name: 'other', isMember: true });
  const store = tempDb();
  const outbox = store.store.outbox({ owner: 'test' });
  const subscriptions = store.store.subscriptions;
  const logs: LogLine[] = [];
  const relays: OutboxRelay[] = [];
  return {
    slack,
    clock,
    store,
    db: store.db,
    outbox,
    subscriptions,
    logs,
    relay(overrides = {}) {
      const { store: given, web, database, ...options } = overrides;
      const r = createOutboxRelay(
        {
          store: given ?? store.store,
          web: web ?? relayWebClient(slack),
          clock,
          logger: captureLogger(logs),
          ...(database ? { database } : {}),
        },
        { owner: 'relay-a', paceMs: 1000, backoffBaseMs: 1000, ...options },
      );
      relays.push(r);
      return r;
    },
    context(overrides = {}) {
      return createRelayContext(
        { store: store.store, web: relayWebClient(slack), clock, logger: captureLogger(logs) },
        { owner: 'relay-a', paceMs: 1000, backoffBaseMs: 1000, ...overrides },
      );
    },
    async enqueue(m) {
      return (
        await outbox.enqueue({
          channelId: ALERTS,
          brandId: 'brand-1',
          kind: 'alert',
          payload: {
            text: `Acme: alert ${m.dedupeKey}`,
            blocks: [{ type: 'section', text: { type: 'mrkdwn', text: `*Alert* ${m.dedupeKey}` } }],
          },
          nowMs: clock.now(),
          ...m,
        })
      ).id;
    },
    async close() {
      // Slack first: a relay stuck on a stalled call then fails fast instead of waiting out
      // its timeout.
      await slack.close();
      for (const r of relays) await r.stop();
      store.close();
    },
  };
}

/**
 * A fresh fixture for every test of a file: started before each, closed after each. The
 * object is filled in by beforeEach.
 */
export function useRelayFixture(): RelayFixture {
  const f = {} as RelayFixture;
  beforeEach(async () => {
    Object.assign(f, await startRelayFixture());
  });
  afterEach(async () => {
    await f.close?.();
  });
  return f;
}

/** The dedupe key a posted message carries in its metadata. */
export const keyOf = (m: { metadata?: { event_payload: Record<string, unknown> } | undefined }) =>
  m.metadata?.event_payload['key'];
