/**
 * A database outage that lasts is said in SLACK_OPS_CHANNEL, directly (the outbox is in
 * the database), once when it has lasted and once when it is over: a real SQLite file
 * another connection locks, the real local Slack.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDatabaseHealth, type DatabaseHealth } from '../../src/database-health.js';
import { type LocalSlack, startLocalSlack } from '../../src/dev/local-slack/index.js';
import { guardStore } from '../../src/guard-store.js';
import { DATABASE_FLAG, reportDatabaseOutages } from '../../src/jobs/database-outage-report.js';
import { OPS_METADATA_EVENT } from '../../src/messages/ops-message.js';
import { createServiceLifecycle } from '../../src/service-lifecycle.js';
import { sqliteWriteProbe } from '../../src/sqlite-write-probe.js';
import { manualClock } from '../helpers/manual-clock.js';
import { type TempDb, tempDb } from '../store/temp-db.js';
import { captureLogger, type LogLine } from './job-fixture.js';
import { relayWebClient } from './relay-fixture.js';

const OPS = 'C0OPSROOM';
let slack: LocalSlack;
let t: TempDb;
let health: DatabaseHealth;
let logs: LogLine[];

beforeEach(async () => {
  slack = await startLocalSlack();
  slack.addChannel({ id: OPS, name: 'ops', isMember: true });
  t = tempDb();
  t.db.pragma('busy_timeout = 10');
  logs = [];
  health = createDatabaseHealth({
    backend: 'sqlite',
    probe: sqliteWriteProbe(t.db, { waitMs: 5 }),
    clock: manualClock(Date.parse('2026-11-24T09:00:00Z')),
    logger: captureLogger(logs),
    retryEveryMs: 20,
  });
});
afterEach(async () => {
  health.close();
  t.close();
  await slack.close();
});

describe('database outage reports', () => {
  it('says in the ops channel that the database is gone once it lasts, and when it is back', async () => {
    const lifecycle = createServiceLifecycle(captureLogger(logs));
    reportDatabaseOutages(
      {
        database: health,
        web: relayWebClient(slack),
        config: { opsChannel: OPS },
        clock: manualClock(Date.parse('2026-11-24T09:00:00Z')),
        logger: captureLogger(logs),
      },
      lifecycle,
      { reportAfterMs: 30, processName: 'serve:host-a:42' },
    );
    const holder = t.open();
    holder.exec('BEGIN EXCLUSIVE');
    const store = guardStore(t.store, health);
    await expect(store.handledRequests.remember('k', 1, 1000)).rejects.toThrow();

    const [raised] = await slack.waitFor(() => slack.messages(OPS).length === 1 && slack.messages(OPS), 5000);
    expect(raised!.text).toContain('visibility-bot cannot use its database');
    expect(JSON.stringify(raised!.blocks)).toContain(
      'Seen by serve:host-a:42: another program holds the SQLite file locked since 2026-11-24T09:00:00.000Z.',
    );
    expect(JSON.stringify(raised!.blocks)).toContain('Commands answer that nothing was changed');
    expect(raised!.metadata).toMatchObject({
      event_type: OPS_METADATA_EVENT,
      event_payload: { flag: DATABASE_FLAG, event: 'raised' },
    });

    holder.exec('ROLLBACK');
    const cleared = await slack.waitFor(() => slack.messages(OPS)[1], 5000);
    expect(cleared.text).toContain('cleared: visibility-bot cannot use its database');
    expect(cleared.metadata?.event_payload).toMatchObject({ flag: DATABASE_FLAG, event: 'cleared' });
    await lifecycle.stop();
    expect(slack.messages(OPS)).toHaveLength(2);
  });

  it('without SLACK_OPS_CHANNEL it does not even listen', () => {
    let listened = false;
    reportDatabaseOutages(
      {
        database: {
          onChange: () => {
            listened = true;
            return () => {};
          },
        },
        web: relayWebClient(slack),
        config: { opsChannel: undefined },
        clock: manualClock(0),
        logger: captureLogger(logs),
      },
      createServiceLifecycle(captureLogger(logs)),
      { processName: 'serve:host-a:42' },
    );
    expect(listened).toBe(false);
  });

  it('logs a report Slack refuses, and still reports the end', async () => {
    const lifecycle = createServiceLifecycle(captureLogger(logs));
    reportDatabaseOutages(
      {
        database: health,
        web: relayWebClient(slack),
        config: { opsChannel: OPS },
        clock: manualClock(Date.parse('2026-11-24T09:00:00Z')),
        logger: captureLogger(logs),
      },
      lifecycle,
      { reportAfterMs: 10, processName: 'serve:host-a:42' },
    );
    slack.failNext('chat.postMessage', 'not_in_channel');
    const holder = t.open();
    holder.exec('BEGIN EXCLUSIVE');
    await expect(guardStore(t.store, health).handledRequests.remember('k', 1, 1000)).rejects.toThrow();
    await expect
      .poll(() => logs.some((l) => l.msg === 'could not report the database outage'), { timeout: 5000 })
      .toBe(true);
    holder.exec('ROLLBACK');
    const cleared = await slack.waitFor(() => slack.messages(OPS)[0], 5000);
    expect(cleared.metadata?.event_payload).toMatchObject({ event: 'cleared' });
    await lifecycle.stop();
  });
});
