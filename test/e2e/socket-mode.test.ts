import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalSlack } from '../../src/dev/local-slack/index.js';
import type { RunningSimulator } from '../../src/dev/simulator/index.js';
import type { RunningService } from '../../src/slack/create-slack-app.js';
import { type FakeSlackService, type FakeSocketMode, startFakeSlackService } from './fake-socket-mode.js';

const APP_TOKEN = 'xapp-1-A0LOCALAPP-1234-socketmodetesttoken';

let sim: RunningSimulator;
let slack: LocalSlack;
let fake: FakeSocketMode;
let service: RunningService;
let running: FakeSlackService;
const lines: string[] = [];

beforeAll(async () => {
  running = await startFakeSlackService({ appToken: APP_TOKEN, lines });
  ({ sim, slack, fake, service } = running);
});
afterAll(async () => {
  await running?.close();
});

describe('Socket Mode', () => {
  it('opens the connection through SLACK_API_URL with the app token', () => {
    expect(service.mode).toBe('socket');
    expect(fake.appTokens).toEqual([APP_TOKEN]);
  });

  it('still serves /healthz and /metrics on PORT', async () => {
    const health = await fetch(`${service.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ ok: true, db: 'open', slack: { mode: 'socket' } });
    const metrics = await fetch(`${service.url}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('visibility_bot_slack_api_calls_total');
    expect((await fetch(`${service.url}/slack/events`, { method: 'POST' })).status).toBe(404);
  });

  it('acks a slash command on the socket and answers on its response_url', async () => {
    const res = await slack.slashCommand(fake.relayUrl, { text: 'brands' });
    const ack = await slack.waitFor(() => fake.received.find((m) => m['envelope_id'] === 'env-1'), 5000);
    // An empty ack: Slack shows nothing for it; the answer follows on the response_url.
    expect(ack).toEqual({ envelope_id: 'env-1', payload: {} });
    const reply = await slack.waitFor(() => slack.responsesFor(res.responseUrlId)[0], 5000);
    expect(reply.status).toBe(200);
    expect(JSON.stringify(reply.body)).toContain('Northwind Outfitters');
    for (const line of lines) expect(line).not.toContain(APP_TOKEN);
  });

  it('applies a redelivered command once and ignores a payload it cannot handle', async () => {
    const posts = () => sim.requests.filter((r) => r.method === 'POST' && r.path === '/get-brands/markets');
    const res = await slack.slashCommand(fake.relayUrl, { text: 'markets "Acme Analytics" add FR' });
    await slack.waitFor(() => slack.responsesFor(res.responseUrlId)[0], 5000);
    const acked = fake.received.length;
    await slack.redeliverLast(fake.relayUrl, { retryNum: 1, retryReason: 'timeout' });
    // The redelivery is acknowledged on the socket, and nothing more is done.
    await slack.waitFor(() => fake.received.length > acked || undefined, 5000);
    expect(posts()).toHaveLength(1);
    expect(slack.responsesFor(res.responseUrlId)).toHaveLength(1);
    expect(lines.some((l) => l.includes('slack_request_redelivered'))).toBe(true);

    // A command payload without user or response_url: acknowledged, nothing done.
    const before = fake.received.length;
    await slack.postSigned(fake.relayUrl, 'command=%2Fvisibility&text=help');
    await slack.waitFor(() => fake.received.length > before || undefined, 5000);
    expect(lines.some((l) => l.includes('slack_request_malformed'))).toBe(true);
    const help = await slack.slashCommand(fake.relayUrl, { text: 'help' });
    expect((await slack.waitFor(() => slack.responsesFor(help.responseUrlId)[0], 5000)).status).toBe(200);
    expect(posts()).toHaveLength(1);
  });
});
