/**
 * The outbox relay against the real local Slack over HTTP, on a real SQLite file. One
 * stepping clock is shared by the relay and the local Slack: `sleep` moves it forward at
 * once, so pacing and Retry-After are exact and instant, and the recorded call times show
 * them.
 */
import { type Logger, LogLevel, WebClient } from '@slack/web-api';
import { pino } from 'pino';
import type { Clock } from '../../src/clock.js';
import { createOutboxRelay, type OutboxRelay, type OutboxRelayOptions } from '../../src/jobs/outbox-relay.js';
import { type LocalSlack, startLocalSlack } from '../../src/slack/local/index.js';
import type { Db } from '../../src/store/open-database.js';
import { createOutboxRepo, type NewOutboxMessage, type OutboxRepo } from '../../src/store/outbox-repo.js';
import { createSubscriptionsRepo, type SubscriptionsRepo } from '../../src/store/subscriptions-repo.js';
import { type TempDb, tempDb } from '../store/temp-db.js';

export interface SteppingClock extends Clock {
  advance(ms: number): void;
}

export function steppingClock(startMs = Date.now()): SteppingClock {
  let now = startMs;
  return {
    now: () => now,
    sleep: async (ms, signal) => {
      signal?.throwIfAborted();
      now += Math.max(0, ms);
      // Let other work run, as a real sleep would.
      await new Promise((resolve) => setImmediate(resolve));
    },
    advance: (ms) => {
      now += ms;
    },
  };
}

export const quietWebLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  setLevel: () => {},
  getLevel: () => LogLevel.ERROR,
  setName: () => {},
};

/** A WebClient as the relay wants it: 429s returned, no client retries, a short timeout. */
export function relayWebClient(slack: LocalSlack, timeoutMs = 5000): WebClient {
  return new WebClient(slack.botToken, {
    slackApiUrl: slack.url,
    rejectRateLimitedCalls: true,
    retryConfig: { retries: 0 },
    timeout: timeoutMs,
    logger: quietWebLogger,
  });
}

export interface LogLine {
  level: number;
  msg: string;
  [k: string]: unknown;
}

export function captureLogger(lines: LogLine[]) {
  return pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
}

export interface RelayFixture {
  slack: LocalSlack;
  clock: SteppingClock;
  store: TempDb;
  db: Db;
  outbox: OutboxRepo;
  subscriptions: SubscriptionsRepo;
  logs: LogLine[];
  relay(overrides?: Partial<OutboxRelayOptions>): OutboxRelay;
  enqueue(m: Partial<NewOutboxMessage> & { dedupeKey: string }): number;
  close(): Promise<void>;
}

export const ALERTS = 'C0ALERTS1';
export const OTHER = 'C0OTHER01';

export async function startRelayFixture(): Promise<RelayFixture> {
  const clock = steppingClock();
  const slack = await startLocalSlack({ clock });
  slack.addChannel({ id: ALERTS, name: 'alerts', isMember: true });
  slack.addChannel({ id: OTHER, name: 'other', isMember: true });
  const store = tempDb();
  const outbox = createOutboxRepo(store.db, { owner: 'test' });
  const subscriptions = createSubscriptionsRepo(store.db);
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
      const r = createOutboxRelay({
        db: store.db,
        web: relayWebClient(slack),
        clock,
        logger: captureLogger(logs),
        owner: 'relay-a',
        paceMs: 1000,
        backoffBaseMs: 1000,
        ...overrides,
      });
      relays.push(r);
      return r;
    },
    enqueue(m) {
      return outbox.enqueue({
        channelId: ALERTS,
        brandId: 'brand-1',
        kind: 'alert',
        payload: {
          text: `Acme: alert ${m.dedupeKey}`,
          blocks: [{ type: 'section', text: { type: 'mrkdwn', text: `*Alert* ${m.dedupeKey}` } }],
        },
        nowMs: clock.now(),
        ...m,
      }).id;
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

/** The dedupe key a posted message carries in its metadata. */
export const keyOf = (m: { metadata?: { event_payload: Record<string, unknown> } | undefined }) =>
  m.metadata?.event_payload['key'];
