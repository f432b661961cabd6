import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signSlackRequest } from '../../src/dev/local-slack/index.js';
import { SEED_BRANDS } from '../../src/dev/simulator/index.js';
import { GLOBAL_MODE_CAVEAT } from '../../src/slack/features/brands/brand-list-view.js';
import { type Harness, startHarness } from './service-harness.js';

interface ReplyBody {
  text: string;
  blocks: Array<Record<string, unknown>>;
  response_type?: string;
}

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});
beforeEach(() => {
  h.slack.reset();
  h.sim.control.reset();
});

/** Sends `/visibility <text>` and returns the first reply posted on its response_url. */
async function command(text: string, userId?: string) {
  const res = await h.slack.slashCommand(h.appUrl, { text, ...(userId ? { userId } : {}) });
  expect(res.status).toBe(200);
  expect(res.body).toBe('');
  const post = await h.slack.waitFor(() => h.slack.responsesFor(res.responseUrlId)[0], 5000);
  // The local Slack validates blocks like Slack does: a rejected reply would be a bug.
  expect(post.status).toBe(200);
  expect(post.error).toBeUndefined();
  return { ...res, reply: post.body as ReplyBody };
}

const blockText = (reply: ReplyBody) => JSON.stringify(reply.blocks);

describe('/visibility over HTTP, signed by the local Slack', () => {
  it('acks help at once and answers on the response_url with every subcommand', async () => {
    const { reply } = await command('help');
    expect(reply.response_type).toBe('ephemeral');
    expect(reply.text).toContain('help');
    expect(reply.text).toContain('brands');
    expect(blockText(reply)).toContain('/visibility brands');
    // help shows no brand data and needs no API call
    expect(h.sim.requests).toHaveLength(0);
  });

  it('acks a command before its work: the ack comes while the service has not answered yet', async () => {
    // The API's answer is held until the test releases it (no real seam holds a request
    // open, so the client's method is wrapped for this one test). An ack that waited for
    // the work would never come, and the test would time out.
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    const api = h.deps.api;
    const getBrands = api.getBrands;
    api.getBrands = async (...args) => {
      await held;
      return getBrands.apply(api, args);
    };
    try {
      h.deps.brandCache.invalidate();
      const res = await h.slack.slashCommand(h.appUrl, { text: 'brands' });
      expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: '' });
      expect(h.slack.responsesFor(res.responseUrlId)).toEqual([]);
      release();
      const post = await h.slack.waitFor(() => h.slack.responsesFor(res.responseUrlId)[0], 5000);
      expect(post.status).toBe(200);
      expect(JSON.stringify(post.body)).toContain(SEED_BRANDS.acme.name);
    } finally {
      api.getBrands = getBrands;
      release();
    }
  });

  it('lists the simulator brands with their buttons', async () => {
    const { reply } = await command('brands');
    for (const b of Object.values(SEED_BRANDS)) {
      expect(reply.text).toContain(b.name);
      expect(blockText(reply)).toContain(b.name);
    }
    expect(blockText(reply)).toContain(GLOBAL_MODE_CAVEAT);
    const buttons = reply.blocks
      .filter((b) => b['type'] === 'actions')
      .flatMap((b) => b['elements'] as Array<{ action_id: string; value: string }>);
    const open = buttons.filter((b) => b.action_id === 'vis:open:brand').map((b) => JSON.parse(b.value));
    expect(open).toContainEqual({ brandId: SEED_BRANDS.globex.id });
    expect(h.sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /get-brands']);
  });

  it('answers an unknown subcommand with the closest one and its usage', async () => {
    const { reply } = await command('brnds');
    expect(reply.text).toContain('Did you mean `brands`?');
    expect(reply.text).toContain('Usage: /visibility brands');
  });

  it("answers bad arguments with the subcommand's usage", async () => {
    const { reply } = await command('brands "unclosed');
    expect(reply.text).toContain('never closed');
    expect(reply.text).toContain('/visibility brands');
    const { reply: extra } = await command('brands acme');
    expect(extra.text).toContain('takes no arguments');
  });

  it('turns an API rejection of the key into the admin hint, not a stack trace', async () => {
    h.sim.control.injectFault({ kind: 'status', status: 401, path: '/get-brands' });
    const { reply } = await command('brands');
    expect(reply.text).toContain('the API key was rejected'.replace('the', 'The'));
    expect(reply.text).toContain('VISIBILITY_API_KEY');
    expect(reply.text).not.toMatch(/\bat .*\.ts:\d+/);
  });

  it('refuses Slack guests politely, before any API call', async () => {
    h.slack.addUser({ id: 'U0GUEST01', name: 'guest', isRestricted: true });
    const { reply } = await command('brands', 'U0GUEST01');
    expect(reply.text).toContain('brand data is for workspace members');
    expect(h.sim.requests).toHaveLength(0);
  });
});

describe('requests Slack did not sign', () => {
  const form = () =>
    new URLSearchParams({
      command: '/visibility',
      text: 'brands',
      user_id: 'U0LOCALUSR',
      channel_id: 'C0LOCALGEN',
      team_id: 'T0LOCAL01',
      trigger_id: 't1',
      response_url: `${h.slack.url.replace(/\/api\/$/, '')}/response/forged`,
    }).toString();

  async function post(body: string, headers: Record<string, string>) {
    const res = await fetch(h.appUrl, { method: 'POST', headers, body });
    await res.text();
    return res.status;
  }

  /** A genuine command after the bad ones: once it is answered, any work they caused would show. */
  async function expectNoWorkDone() {
    await command('help');
    expect(h.sim.requests).toHaveLength(0);
    expect(h.slack.responses).toHaveLength(1);
  }

  it('rejects unsigned, badly signed and stale requests with 401', async () => {
    const body = form();
    const now = Math.floor(Date.now() / 1000);
    const formType = { 'content-type': 'application/x-www-form-urlencoded' };
    expect(await post(body, formType)).toBe(401);

    const forged = signSlackRequest('not-the-signing-secret', body, now);
    expect(
      await post(body, {
        ...formType,
        'x-slack-signature': forged.signature,
        'x-slack-request-timestamp': forged.timestamp,
      }),
    ).toBe(401);

    const stale = h.slack.sign(body, now - 6 * 60);
    expect(
      await post(body, {
        ...formType,
        'x-slack-signature': stale.signature,
        'x-slack-request-timestamp': stale.timestamp,
      }),
    ).toBe(401);

    const tampered = h.slack.sign(body, now);
    expect(
      await post(`${body}&text=help`, {
        ...formType,
        'x-slack-signature': tampered.signature,
        'x-slack-request-timestamp': tampered.timestamp,
      }),
    ).toBe(401);
    await expectNoWorkDone();
  });

  it('rejects a signed body sent with the wrong content type', async () => {
    const body = form();
    for (const type of ['text/plain', 'application/json']) {
      const { signature, timestamp } = h.slack.sign(body);
      const status = await post(body, {
        'content-type': type,
        'x-slack-signature': signature,
        'x-slack-request-timestamp': timestamp,
      });
      expect(status).toBe(400);
    }
    await expectNoWorkDone();
  });
});

describe('operations endpoints', () => {
  it('serves /healthz with the database and the last API outcome', async () => {
    const before = (await (await fetch(`${h.service.url}/healthz`)).json()) as Record<string, unknown>;
    expect(before).toMatchObject({
      ok: true,
      db: 'open',
      database: { backend: 'sqlite', reachable: true },
      slack: { mode: 'http' },
    });
    await command('brands');
    const res = await fetch(`${h.service.url}/healthz`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { api: { reachable: boolean; checkedAt: string } };
    expect(body.api.reachable).toBe(true);
    expect(Date.parse(body.api.checkedAt)).toBeGreaterThan(0);
  });

  it('stays green while the API is down', async () => {
    h.sim.control.injectFault({ kind: 'status', status: 401, path: '/get-brands' });
    await command('brands');
    h.sim.control.injectFault({ kind: 'reset-connection', count: 10 });
    h.deps.brandCache.invalidate();
    await command('brands');
    const res = await fetch(`${h.service.url}/healthz`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { api: { reachable: boolean } }).api.reachable).toBe(false);
  });

  it('serves Prometheus metrics for the API, Slack calls and commands', async () => {
    await command('brands');
    const res = await fetch(`${h.service.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    expect(text).toMatch(/visibility_bot_api_requests_total\{endpoint="getBrands",status="200"\} \d+/);
    expect(text).toContain('visibility_bot_api_request_duration_seconds_bucket');
    expect(text).toMatch(/visibility_bot_limiter_queue_length\{lane="interactive"\} 0/);
    expect(text).toMatch(/visibility_bot_limiter_tokens \d+/);
    expect(text).toMatch(/visibility_bot_slack_api_calls_total\{method="users.info",outcome="ok"\} \d+/);
    expect(text).toMatch(/visibility_bot_slack_api_calls_total\{method="response_url",outcome="ok"\} \d+/);
    expect(text).toMatch(
      /visibility_bot_command_duration_seconds_count\{subcommand="brands",outcome="ok"\} \d+/,
    );
  });
});

describe('logs', () => {
  it('never carry the API key, the bot token or the signing secret', () => {
    expect(h.logLines.length).toBeGreaterThan(10);
    for (const secret of [h.sim.apiKey, h.slack.botToken, h.slack.signingSecret]) {
      expect(h.logLines.filter((l) => l.includes(secret))).toEqual([]);
    }
  });
});
