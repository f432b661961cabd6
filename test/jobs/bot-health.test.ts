import { beforeEach, describe, expect, it } from 'vitest';
import { createBotHealth } from '../../src/jobs/bot-health.js';
import { createSqliteStore } from '../../src/store/create-sqlite-store.js';
import { captureLogger, type LogLine } from './job-fixture.js';
import { useRelayFixture } from './relay-fixture.js';

const OPS = 'C0OPSROOM';

const f = useRelayFixture();
beforeEach(() => {
  f.slack.addChannel({ id: OPS, name: 'ops', isMember: true });
});

function health(opsChannel: string | null = OPS, logs: LogLine[] = []) {
  return createBotHealth({
    healthFlagsRepo: createSqliteStore(f.db).healthFlags,
    outbox: f.outbox,
    opsChannel: opsChannel ?? undefined,
    clock: f.clock,
    logger: captureLogger(logs),
  });
}

const opsTexts = () => f.slack.messages(OPS).map((m) => m.text);

describe('bot health', () => {
  it('reports a problem once to the ops channel however often it is raised, and once when it clears', async () => {
    const logs: LogLine[] = [];
    const h = health(OPS, logs);
    const relay = f.relay();

    await h.raise('key_rejected', 'GET /get-brands answered 401');
    f.clock.advance(60_000);
    await h.raise('key_rejected', 'GET /get-brands answered 401');
    await relay.drainOnce();
    await h.raise('key_rejected', 'GET /citations answered 403');
    await relay.drainOnce();

    expect(opsTexts()).toEqual([
      'visibility-bot: The Brand Visibility API rejected the API key. GET /get-brands answered 401',
    ]);
    expect((await h.current()).map((x) => [x.key, x.detail])).toEqual([
      ['key_rejected', 'GET /citations answered 403'],
    ]);

    await h.clear('key_rejected');
    await h.clear('key_rejected');
    await relay.drainOnce();
    expect(opsTexts()).toHaveLength(2);
    expect(opsTexts()[1]).toBe('visibility-bot: cleared: The Brand Visibility API rejected the API key');
    expect(await h.current()).toEqual([]);

    const [raised] = f.slack.messages(OPS);
    expect(raised!.metadata?.event_payload).toMatchObject({
      kind: 'ops',
      flag: 'key_rejected',
      event: 'raised',
    });
    expect(JSON.stringify(raised!.blocks)).toContain('Check VISIBILITY_API_KEY');
    expect(logs.filter((l) => l.msg === 'bot health: problem raised')).toHaveLength(1);
    expect(logs.filter((l) => l.msg === 'bot health: problem cleared')).toHaveLength(1);
  });

  it('a problem that comes back after it cleared is a new episode, reported again', async () => {
    const h = health();
    const relay = f.relay({ paceMs: 0 });
    await h.raise('quota_spent', 'daily quota of 10000 used');
    await h.clear('quota_spent');
    f.clock.advance(1000);
    await h.raise('quota_spent', 'daily quota of 10000 used');
    await relay.drainOnce();
    expect(opsTexts()).toEqual([
      expect.stringMatching(/quota is spent/),
      expect.stringMatching(/^visibility-bot: cleared: /),
      expect.stringMatching(/quota is spent/),
    ]);
  });

  it('job_failing flags name the job; several flags are independent', async () => {
    const h = health();
    await h.raise('job_failing:citations', 'three runs failed: timeout');
    await h.raise('quota_spent', 'used up');
    await h.clear('job_failing:citations');
    await f.relay({ paceMs: 0 }).drainOnce();
    expect(opsTexts()).toEqual([
      'visibility-bot: The citations job is failing. three runs failed: timeout',
      "visibility-bot: The API key's daily request quota is spent. used up",
      'visibility-bot: cleared: The citations job is failing',
    ]);
    expect((await h.current()).map((x) => x.key)).toEqual(['quota_spent']);
  });

  it('without SLACK_OPS_CHANNEL the trouble is only logged and kept for status', async () => {
    const logs: LogLine[] = [];
    const h = health(null, logs);
    await h.raise('key_rejected', '401');
    expect((await f.outbox.counts()).pending).toBe(0);
    expect(await h.current()).toHaveLength(1);
    expect(logs.some((l) => l.level === 50 && l['flag'] === 'key_rejected')).toBe(true);
  });

  it('a report written twice (crash before it was marked) is still posted once', async () => {
    const h = health();
    const repo = createSqliteStore(f.db).healthFlags;
    await repo.raise('key_rejected', '401', f.clock.now());
    await h.flush();
    expect((await f.outbox.counts()).pending).toBe(1);
    // As if that process died after writing the outbox row, before the "reported" mark.
    f.db.prepare('UPDATE health_flags SET raised_reported_at_ms = NULL').run();
    await h.flush();
    expect((await f.outbox.counts()).pending).toBe(1);
    await f.relay().drainOnce();
    expect(opsTexts()).toHaveLength(1);
  });
});
