/**
 * /healthz tells the truth about the link to Slack, against the fake Socket Mode server
 * (and /readyz stays 503 until start-up has reached Slack):
 * Slack unreachable at start-up (the scheduler runs anyway, health stays green within the
 * grace period and turns 503 after it), then connected, dropped and reconnected. Time past
 * the grace period comes from the injected clock; the pauses between reconnect attempts are knobs.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Clock, systemClock } from '../../src/clock.js';
import type { LocalSlack } from '../../src/dev/local-slack/index.js';
import type { RunningService } from '../../src/slack/create-slack-app.js';
import { type FakeSlackService, type FakeSocketMode, startFakeSlackService } from './fake-socket-mode.js';

const APP_TOKEN = 'xapp-1-A0LOCALAPP-1234-socketmodehealthtoken';
const GRACE_SECONDS = 120;

interface Health {
  status: number;
  body: {
    ok: boolean;
    problems: string[];
    slack: {
      mode: string;
      connected: boolean;
      state: string;
      reconnectAttempts: number;
      reconnects: number;
      lastError: string | null;
    };
    scheduler: { running: boolean };
  };
}

/** A clock the test moves forward; sleeps stay real (they are the retry pauses). */
function shiftedClock(): Clock & { advance(ms: number): void } {
  let offset = 0;
  return {
    now: () => Date.now() + offset,
    sleep: systemClock.sleep,
    advance(ms) {
      offset += ms;
    },
  };
}

async function health(url: string): Promise<Health> {
  const res = await fetch(`${url}/healthz`);
  return { status: res.status, body: (await res.json()) as Health['body'] };
}

async function healthWhen(url: string, ok: (h: Health) => boolean, timeoutMs = 15_000): Promise<Health> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const h = await health(url);
    if (ok(h)) return h;
    if (performance.now() > deadline) throw new Error(`health never matched; last: ${JSON.stringify(h)}`);
    await delay(20);
  }
}

/** Slack unreachable at start-up, the scheduler on, short reconnect pauses. */
function slackDownAtStart(clock: Clock) {
  return {
    env: { HEALTH_SLACK_GRACE_SECONDS: String(GRACE_SECONDS) },
    clock,
    reachable: false,
    withScheduler: true,
    start: { slackWaitMs: 100, slackRetryMs: { first: 50, max: 200 } },
  };
}

describe('Socket Mode health', () => {
  let slack: LocalSlack;
  let fake: FakeSocketMode;
  let service: RunningService;
  let running: FakeSlackService;
  const clock = shiftedClock();
  const lines: string[] = [];

  beforeAll(async () => {
    running = await startFakeSlackService({ ...slackDownAtStart(clock), appToken: APP_TOKEN, lines });
    ({ slack, fake, service } = running);
  });
  afterAll(async () => {
    await running?.close();
  });

  it('starts the scheduler while Slack is unreachable, and stays green within the grace period', async () => {
    const h = await healthWhen(service.url, (x) => x.body.slack.reconnectAttempts >= 2);
    expect(h.status).toBe(200);
    expect(h.body.ok).toBe(true);
    expect(h.body.scheduler.running).toBe(true);
    expect(h.body.slack).toMatchObject({ mode: 'socket', connected: false, state: 'connecting' });
    expect(h.body.slack.lastError).toContain('503');
  });

  it('turns 503 once Slack has been unreachable for longer than the grace period', async () => {
    clock.advance((GRACE_SECONDS + 1) * 1000);
    const h = await health(service.url);
    expect(h.status).toBe(503);
    expect(h.body.problems).toEqual(['slack_unreachable']);
    expect(h.body.scheduler.running).toBe(true);
  });

  it('connects by itself when Slack is back, and turns green', async () => {
    fake.reachable = true;
    const h = await healthWhen(service.url, (x) => x.body.slack.connected);
    expect(h.status).toBe(200);
    expect(h.body).toMatchObject({ ok: true, problems: [] });
    expect(h.body.slack).toMatchObject({ state: 'connected', reconnectAttempts: 0, lastError: null });
    expect(fake.appTokens.at(-1)).toBe(APP_TOKEN);
  });

  it('reports a dropped connection, turns 503 after the grace period, and recovers on reconnect', async () => {
    const before = (await health(service.url)).body.slack.reconnects;
    fake.reachable = false;
    fake.dropConnections();
    const dropped = await healthWhen(service.url, (x) => !x.body.slack.connected);
    expect(dropped.status).toBe(200);
    expect(dropped.body.slack.state).toMatch(/disconnected|connecting/);

    clock.advance((GRACE_SECONDS + 1) * 1000);
    const red = await health(service.url);
    expect(red.status).toBe(503);
    expect(red.body.problems).toEqual(['slack_unreachable']);

    fake.reachable = true;
    const back = await healthWhen(service.url, (x) => x.body.slack.connected);
    expect(back.status).toBe(200);
    expect(back.body.slack.reconnects).toBeGreaterThan(before);

    // And the reconnected socket carries commands again.
    const res = await slack.slashCommand(fake.relayUrl, { text: 'brands' });
    const reply = await slack.waitFor(() => slack.responsesFor(res.responseUrlId)[0], 10_000);
    expect(JSON.stringify(reply.body)).toContain('Northwind Outfitters');
  });
});

describe('HTTP mode health', () => {
  let slack: LocalSlack;
  let fake: FakeSocketMode;
  let service: RunningService;
  let running: FakeSlackService;
  const clock = shiftedClock();

  beforeAll(async () => {
    running = await startFakeSlackService(slackDownAtStart(clock));
    ({ slack, fake, service } = running);
  });
  afterAll(async () => {
    await running?.close();
  });

  it('serves /healthz and runs the scheduler before auth.test passes; Slack requests get 503 meanwhile', async () => {
    const h = await healthWhen(service.url, (x) => x.body.slack.reconnectAttempts >= 1);
    expect(h.status).toBe(200);
    expect(h.body.scheduler.running).toBe(true);
    expect(h.body.slack).toMatchObject({ mode: 'http', connected: false });
    const early = await fetch(`${service.url}/slack/events`, { method: 'POST', body: '' });
    expect(early.status).toBe(503);
    // Not ready either: a load balancer sends Slack's requests elsewhere until start-up is done.
    const starting = await fetch(`${service.url}/readyz`);
    expect(starting.status).toBe(503);
    expect(await starting.json()).toMatchObject({ ready: false, problems: ['starting'] });

    clock.advance((GRACE_SECONDS + 1) * 1000);
    expect((await health(service.url)).status).toBe(503);

    fake.reachable = true;
    const up = await healthWhen(service.url, (x) => x.body.slack.connected);
    expect(up.status).toBe(200);
    const ready = await fetch(`${service.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ ready: true, problems: [], database: { reachable: true } });
    const res = await slack.slashCommand(`${service.url}/slack/events`, { text: 'brands' });
    const reply = await slack.waitFor(() => slack.responsesFor(res.responseUrlId)[0], 10_000);
    expect(JSON.stringify(reply.body)).toContain('Northwind Outfitters');
  });
});
