/**
 * Hostile and odd requests against a real `serve` (in-process, port 0) between the API
 * simulator and the local Slack: correctly signed bodies Slack would never send, requests
 * dated outside Slack's 5-minute window in either direction, and Slack's redeliveries.
 * Each must leave the process serving, do no work it should not, and be logged.
 */
import type { ChildProcess } from 'node:child_process';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runServe } from '../../src/cli/serve.js';
import type { Clock } from '../../src/clock.js';
import { systemClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { captureLogger, spawnServe, useBackends } from './service-harness.js';

const backends = useBackends();
const FORM = 'application/x-www-form-urlencoded';
const USER = 'U0LOCALUSR';
const CHANNEL = 'C0LOCALGEN';

interface Serve {
  url: string;
  appUrl: string;
  lines: string[];
  exits: number[];
  stop(): Promise<void>;
}

const running: Serve[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) await s.stop();
});

async function startServe(clock: Clock = systemClock): Promise<Serve> {
  const config = loadConfig('serve', backends.env);
  const lines: string[] = [];
  const exits: number[] = [];
  const abort = new AbortController();
  let url = '';
  await new Promise<void>((resolve, reject) => {
    void runServe(config, {
      signal: abort.signal,
      handleSignals: false,
      // No scheduler: every API request the simulator records comes from a Slack request.
      extensions: [],
      overrides: { logger: captureLogger(config, lines), clock },
      onListening: (u) => {
        url = u;
        resolve();
      },
    }).then((code) => {
      exits.push(code);
      reject(new Error(`serve exited with ${code} before listening: ${lines.join('')}`));
    });
  });
  const serve: Serve = {
    url,
    appUrl: `${url}/slack/events`,
    lines,
    exits,
    async stop() {
      if (exits.length > 0) return;
      abort.abort();
      await backends.slack.waitFor(() => exits.length > 0, 10_000);
    },
  };
  running.push(serve);
  return serve;
}

const origin = () => backends.slack.url.replace(/\/api\/$/, '');
const hostedUrl = (id: string) => `${origin()}/response/${id}`;
const trigger = () => `${Math.floor(Math.random() * 1e10)}.${Math.floor(Math.random() * 1e10)}.abc`;
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const interaction = (payload: unknown) => form({ payload: JSON.stringify(payload) });

/** Everything the bot could have done: API calls, Slack Web API calls, response_url posts. */
function work() {
  return {
    api: backends.sim.requests.length,
    apiWrites: backends.sim.requests.filter((r) => r.method !== 'GET').length,
    slack: backends.slack.calls.filter((c) => c.method !== 'users.info').length,
    responses: backends.slack.responses.length,
  };
}

function clickPayload(responseUrl: string, overrides: Record<string, unknown> = {}) {
  return {
    type: 'block_actions',
    user: { id: USER, username: 'local.user', team_id: 'T0LOCAL01' },
    api_app_id: 'A0LOCAL01',
    token: 'legacy',
    trigger_id: trigger(),
    team: { id: 'T0LOCAL01', domain: 'local' },
    enterprise: null,
    is_enterprise_install: false,
    container: { type: 'message', message_ts: '1700000000.000100', channel_id: CHANNEL, is_ephemeral: true },
    channel: { id: CHANNEL, name: 'general' },
    state: { values: {} },
    response_url: responseUrl,
    actions: [
      {
        type: 'button',
        action_id: 'vis:ideas:page:next',
        block_id: 'b1',
        action_ts: '1700000001.000200',
        value: JSON.stringify({ brandId: 'brand_x', status: 'active', offset: 10 }),
      },
    ],
    ...overrides,
  };
}

function submissionPayload(overrides: Record<string, unknown> = {}) {
  return {
    type: 'view_submission',
    user: { id: USER, team_id: 'T0LOCAL01' },
    team: { id: 'T0LOCAL01', domain: 'local' },
    trigger_id: trigger(),
    view: {
      id: 'V0HOSTILE',
      type: 'modal',
      callback_id: 'vis:markets:add',
      private_metadata: '{}',
      blocks: [],
      state: { values: {} },
    },
    response_urls: [],
    ...overrides,
  };
}

function commandForm(responseUrl: string, drop: string[] = [], extra: Record<string, string> = {}) {
  const fields: Record<string, string> = {
    token: 'legacy',
    team_id: 'T0LOCAL01',
    team_domain: 'local',
    channel_id: CHANNEL,
    channel_name: 'general',
    user_id: USER,
    user_name: 'local.user',
    command: '/visibility',
    text: 'markets "Acme Analytics" add FR',
    api_app_id: 'A0LOCAL01',
    response_url: responseUrl,
    trigger_id: trigger(),
    ...extra,
  };
  for (const k of drop) delete fields[k];
  return form(fields);
}

const withoutKey = (o: Record<string, unknown>, key: string) => {
  const copy = { ...o };
  delete copy[key];
  return copy;
};

interface Case {
  name: string;
  body: (responseUrl: string) => string;
  contentType?: string;
  status?: number;
}

/**
 * Signed requests that must be answered (200 unless said otherwise) with nothing done:
 * no API call, no Slack call, no reply, and the process still serving.
 */
const ignored: Case[] = [
  { name: 'payload=null', body: () => form({ payload: 'null' }) },
  { name: 'payload is not JSON', body: () => form({ payload: '{"type": "block_actions",' }) },
  { name: 'payload is a JSON array', body: () => form({ payload: '[{"type":"block_actions"}]' }) },
  { name: 'payload is a JSON number', body: () => form({ payload: '42' }) },
  { name: 'payload is a JSON string', body: () => form({ payload: '"block_actions"' }) },
  { name: 'payload is empty', body: () => form({ payload: '' }) },
  { name: 'payload given twice', body: (u) => `${interaction(clickPayload(u))}&payload=null` },
  { name: 'click without user', body: (u) => interaction(withoutKey(clickPayload(u), 'user')) },
  { name: 'click with user null', body: (u) => interaction(clickPayload(u, { user: null })) },
  { name: 'click with user as a string', body: (u) => interaction(clickPayload(u, { user: USER })) },
  { name: 'click with user without id', body: (u) => interaction(clickPayload(u, { user: { name: 'x' } })) },
  { name: 'click without channel', body: (u) => interaction(withoutKey(clickPayload(u), 'channel')) },
  { name: 'click with channel null', body: (u) => interaction(clickPayload(u, { channel: null })) },
  {
    name: 'click without response_url',
    body: (u) => interaction(withoutKey(clickPayload(u), 'response_url')),
  },
  {
    name: 'click with a response_url that is not a URL',
    body: (u) => interaction(clickPayload(u, { response_url: 'javascript:alert(1)' })),
  },
  {
    name: 'click without team (and no team_id on the user)',
    body: (u) => interaction(clickPayload(u, { team: null, user: { id: USER } })),
  },
  { name: 'click without actions', body: (u) => interaction(withoutKey(clickPayload(u), 'actions')) },
  { name: 'click with no action in actions', body: (u) => interaction(clickPayload(u, { actions: [] })) },
  {
    name: 'click with actions not an array',
    body: (u) => interaction(clickPayload(u, { actions: { action_id: 'vis:ideas:page:next' } })),
  },
  {
    name: 'click whose action has no action_id',
    body: (u) => interaction(clickPayload(u, { actions: [{ type: 'button', value: '{}' }] })),
  },
  { name: 'click without container', body: (u) => interaction(withoutKey(clickPayload(u), 'container')) },
  { name: 'click without trigger_id', body: (u) => interaction(withoutKey(clickPayload(u), 'trigger_id')) },
  {
    name: 'click in a modal without its view',
    body: (u) => interaction(clickPayload(u, { container: { type: 'view', view_id: 'V1' } })),
  },
  {
    name: 'click on an action_id the bot never issued',
    body: (u) =>
      interaction(
        clickPayload(u, {
          actions: [{ type: 'button', action_id: 'approve_payment', value: '1', action_ts: '1' }],
        }),
      ),
  },
  {
    name: 'interaction of an unknown type',
    body: (u) => interaction(clickPayload(u, { type: 'bogus_type' })),
  },
  { name: 'interaction without a type', body: (u) => interaction(withoutKey(clickPayload(u), 'type')) },
  {
    name: 'global shortcut (none registered)',
    body: (u) => interaction(clickPayload(u, { type: 'shortcut' })),
  },
  {
    name: 'message action (none registered)',
    body: (u) => interaction(clickPayload(u, { type: 'message_action' })),
  },
  { name: 'view_submission without view', body: () => interaction(withoutKey(submissionPayload(), 'view')) },
  { name: 'view_submission without user', body: () => interaction(withoutKey(submissionPayload(), 'user')) },
  {
    name: 'view_submission whose view has no state',
    body: () =>
      interaction(
        submissionPayload({ view: { id: 'V1', callback_id: 'vis:markets:add', private_metadata: '{}' } }),
      ),
  },
  {
    name: 'view_submission with a callback_id the bot never issued',
    body: () =>
      interaction(
        submissionPayload({ view: { id: 'V1', callback_id: 'not_ours', blocks: [], state: { values: {} } } }),
      ),
  },
  { name: 'slash command without user_id', body: (u) => commandForm(u, ['user_id']) },
  { name: 'slash command without channel_id', body: (u) => commandForm(u, ['channel_id']) },
  { name: 'slash command without response_url', body: (u) => commandForm(u, ['response_url']) },
  { name: 'slash command without team_id', body: (u) => commandForm(u, ['team_id']) },
  { name: 'slash command without command', body: (u) => commandForm(u, ['command']) },
  { name: 'slash command without text', body: (u) => commandForm(u, ['text']) },
  { name: 'slash command without trigger_id', body: (u) => commandForm(u, ['trigger_id']) },
  {
    name: 'slash command with a response_url that is not a URL',
    body: (u) => commandForm(u, [], { response_url: 'not a url' }),
  },
  { name: 'slash command the bot does not own', body: (u) => commandForm(u, [], { command: '/other' }) },
  { name: 'empty form', body: () => '' },
  { name: 'events body: JSON null', body: () => 'null', contentType: 'application/json' },
  { name: 'events body: JSON array', body: () => '[]', contentType: 'application/json' },
  { name: 'events body: JSON number', body: () => '7', contentType: 'application/json' },
  { name: 'events body: unknown type', body: () => '{"type":"bogus"}', contentType: 'application/json' },
  {
    name: 'event_callback without event',
    body: () => JSON.stringify({ type: 'event_callback', team_id: 'T0LOCAL01', event_id: 'Ev1' }),
    contentType: 'application/json',
  },
  {
    name: 'event_callback with event null',
    body: () =>
      JSON.stringify({ type: 'event_callback', team_id: 'T0LOCAL01', event_id: 'Ev2', event: null }),
    contentType: 'application/json',
  },
  {
    name: 'app_home_opened without user',
    body: () =>
      JSON.stringify({
        type: 'event_callback',
        team_id: 'T0LOCAL01',
        event_id: 'Ev3',
        event: { type: 'app_home_opened', tab: 'home' },
      }),
    contentType: 'application/json',
  },
  {
    name: 'url_verification without challenge',
    body: () => '{"type":"url_verification"}',
    contentType: 'application/json',
  },
  { name: 'events body that is not JSON', body: () => '{oops', contentType: 'application/json', status: 400 },
];

/** Values inside well-formed clicks that our buttons never carry: a clear ephemeral answer, no write. */
const refused: Array<{ name: string; actionId: string; value: string; says: string }> = [
  {
    name: 'unknown vis: action_id',
    actionId: 'vis:launch:missiles',
    value: '{}',
    says: 'That button no longer does anything',
  },
  {
    name: 'garbage button value',
    actionId: 'vis:ideas:page:next',
    value: '<!channel>{',
    says: 'older message',
  },
  {
    name: 'button value a JSON array',
    actionId: 'vis:markets:remove',
    value: '["brand","market"]',
    says: 'older message',
  },
  {
    name: 'absurd page number',
    actionId: 'vis:ideas:page:next',
    value: JSON.stringify({ brandId: 'b', status: 'active', offset: 1e15 }),
    says: 'older message',
  },
  {
    name: 'negative page number',
    actionId: 'vis:citations:page:prev',
    value: JSON.stringify({ brandId: 'b', offset: -50 }),
    says: 'older message',
  },
  {
    name: 'unknown brand id',
    actionId: 'vis:open:markets',
    value: JSON.stringify({ brandId: 'brand_never_issued' }),
    says: 'brand_never_issued',
  },
];

describe('signed requests the bot cannot use', () => {
  it('answers each with the expected status, does nothing, and keeps serving', async () => {
    const serve = await startServe();
    // A live response_url: if any case replied, the post would be recorded on it.
    const help = await backends.slack.slashCommand(serve.appUrl, { text: 'help' });
    await backends.slack.waitFor(() => backends.slack.responsesFor(help.responseUrlId)[0], 5000);
    const before = work();
    const url = hostedUrl(help.responseUrlId);

    const outcomes: Array<{ name: string; status: number; body: string }> = [];
    for (const c of ignored) {
      const res = await backends.slack.postSigned(serve.appUrl, c.body(url), {
        contentType: c.contentType ?? FORM,
      });
      outcomes.push({ name: c.name, status: res.status, body: res.body });
    }
    expect(outcomes).toEqual(ignored.map((c) => ({ name: c.name, status: c.status ?? 200, body: '' })));

    // Let anything started in the background surface, then prove nothing was done.
    const after = await backends.slack.slashCommand(serve.appUrl, { text: 'help' });
    await backends.slack.waitFor(() => backends.slack.responsesFor(after.responseUrlId)[0], 5000);
    expect((await fetch(`${serve.url}/healthz`)).status).toBe(200);
    expect(serve.exits).toEqual([]);
    await serve.stop(); // waits for acked work, so anything a case set off has happened
    expect(serve.exits).toEqual([0]);
    expect(work()).toEqual({ ...before, responses: before.responses + 1 });
    expect(backends.slack.responsesFor(help.responseUrlId)).toHaveLength(1);

    // Each was logged as a warning that says why, without the signing secret or tokens.
    const log = serve.lines.join('');
    expect(serve.lines.filter((l) => l.includes('slack_request_malformed')).length).toBeGreaterThanOrEqual(
      40,
    );
    expect(log).toContain('"level":40');
    for (const secret of [backends.slack.signingSecret, backends.slack.botToken, backends.sim.apiKey])
      expect(log).not.toContain(secret);
  }, 60_000);

  it('answers values it never issued with a clear ephemeral message and writes nothing', async () => {
    const serve = await startServe();
    for (const c of refused) {
      const help = await backends.slack.slashCommand(serve.appUrl, { text: 'help' });
      await backends.slack.waitFor(() => backends.slack.responsesFor(help.responseUrlId)[0], 5000);
      const res = await backends.slack.postSigned(
        serve.appUrl,
        interaction(
          clickPayload(hostedUrl(help.responseUrlId), {
            actions: [
              { type: 'button', action_id: c.actionId, block_id: 'b', action_ts: '1', value: c.value },
            ],
          }),
        ),
      );
      expect({ name: c.name, status: res.status, body: res.body }).toEqual({
        name: c.name,
        status: 200,
        body: '',
      });
      const reply = await backends.slack.waitFor(
        () => backends.slack.responsesFor(help.responseUrlId)[1],
        5000,
      );
      expect({ name: c.name, text: JSON.stringify(reply.body) }).toEqual({
        name: c.name,
        text: expect.stringContaining(c.says),
      });
      expect(JSON.stringify(reply.body)).not.toContain('"response_type":"in_channel"');
    }
    expect(work().apiWrites).toBe(0);
    // Only the unknown brand needed the brand list to know it is unknown.
    expect(backends.sim.requests.every((r) => r.method === 'GET' && r.path === '/get-brands')).toBe(true);
    expect(serve.exits).toEqual([]);
  }, 60_000);

  it('survives a listener that throws before it acknowledged, and still answers 200', async () => {
    const serve = await startServe();
    // A submission whose modal has no blocks: the submission listener fails on its stale
    // metadata, then throws again while looking for an input block to show the error under.
    const body = interaction(
      submissionPayload({
        view: {
          id: 'V1',
          callback_id: 'vis:markets:add',
          private_metadata: 'stale',
          state: {
            values: { country: { value: { type: 'static_select', selected_option: { value: 'FR' } } } },
          },
        },
      }),
    );
    const res = await backends.slack.postSigned(serve.appUrl, body);
    // Answered by the guard as soon as the listener failed, not by Bolt's timeout, which
    // answers 404 after 3 s (and would have left the guard's own answer unsent).
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: '' });
    expect(serve.lines.some((l) => l.includes('not acknowledged within 3 seconds'))).toBe(false);
    expect(serve.lines.some((l) => l.includes('late acknowledgement not sent'))).toBe(false);
    expect(serve.lines.some((l) => l.includes('unhandled error in a Slack listener'))).toBe(true);

    const help = await backends.slack.slashCommand(serve.appUrl, { text: 'help' });
    await backends.slack.waitFor(() => backends.slack.responsesFor(help.responseUrlId)[0], 5000);
    expect((await fetch(`${serve.url}/healthz`)).status).toBe(200);
    expect(serve.exits).toEqual([]);
  });
});

describe('request timestamps', () => {
  it('refuses requests dated 6 minutes in the future or the past with 401 and no work', async () => {
    const serve = await startServe();
    const help = await backends.slack.slashCommand(serve.appUrl, { text: 'help' });
    await backends.slack.waitFor(() => backends.slack.responsesFor(help.responseUrlId)[0], 5000);
    const before = work();
    const now = Math.floor(Date.now() / 1000);
    for (const offset of [6 * 60, -6 * 60]) {
      const res = await backends.slack.postSigned(serve.appUrl, commandForm(hostedUrl(help.responseUrlId)), {
        timestampSec: now + offset,
      });
      expect({ offset, status: res.status }).toEqual({ offset, status: 401 });
    }
    // Within the window (4 minutes ahead), the same kind of request is accepted.
    const ok = await backends.slack.postSigned(serve.appUrl, commandForm(hostedUrl(help.responseUrlId)), {
      timestampSec: now + 4 * 60,
    });
    expect(ok.status).toBe(200);
    await backends.slack.waitFor(() => backends.slack.responsesFor(help.responseUrlId)[1], 5000);
    expect(before.apiWrites).toBe(0);
    expect(work().apiWrites).toBe(1);
    expect(serve.lines.filter((l) => l.includes('slack_request_unverified'))).toHaveLength(2);
  });

  it("answers Slack's unsigned ssl_check with 200 and ignores anything smuggled with it", async () => {
    const serve = await startServe();
    const smuggled = `ssl_check=1&${commandForm(hostedUrl('smuggled'))}`;
    const res = await fetch(serve.appUrl, {
      method: 'POST',
      headers: { 'content-type': FORM },
      body: smuggled,
    });
    expect(res.status).toBe(200);
    await serve.stop();
    expect(backends.sim.requests).toHaveLength(0);
    expect(backends.slack.responses).toHaveLength(0);
  });

  it('judges freshness by the service clock, not the wall clock', async () => {
    const aheadMs = 60 * 60 * 1000;
    const serve = await startServe({ ...systemClock, now: () => Date.now() + aheadMs });
    const body = commandForm(hostedUrl('unused00'), [], { text: 'help' });
    const wall = await backends.slack.postSigned(serve.appUrl, body);
    expect(wall.status).toBe(401);
    const help = await backends.slack.slashCommand(serve.appUrl, { text: 'help' });
    expect(help.status).toBe(401);
    const shifted = await backends.slack.postSigned(serve.appUrl, body, {
      timestampSec: Math.floor((Date.now() + aheadMs) / 1000),
    });
    expect(shifted.status).toBe(200);
  });
});

describe('Slack redeliveries', () => {
  const postsTo = (path: string, method: string) =>
    backends.sim.requests.filter((r) => r.path === path && r.method === method);

  it('applies a redelivered `markets … add …` once: one POST, one reply', async () => {
    const serve = await startServe();
    const cmd = await backends.slack.slashCommand(serve.appUrl, { text: 'markets "Acme Analytics" add FR' });
    expect(cmd.status).toBe(200);
    await backends.slack.waitFor(() => backends.slack.responsesFor(cmd.responseUrlId)[0], 5000);
    for (const retryNum of [1, 2, 3]) {
      const again = await backends.slack.redeliverLast(serve.appUrl, {
        retryNum,
        retryReason: 'http_timeout',
      });
      expect(again).toEqual({ status: 200, body: '' });
    }
    await serve.stop(); // waits for acked work: a second POST would have been sent by now
    expect(postsTo('/get-brands/markets', 'POST')).toHaveLength(1);
    const replies = backends.slack.responsesFor(cmd.responseUrlId);
    expect(replies).toHaveLength(1);
    expect(JSON.stringify(replies[0]?.body)).toContain('Added the market');
    expect(serve.lines.filter((l) => l.includes('slack_request_redelivered'))).toHaveLength(3);
  });

  it('applies a redelivered Remove click once', async () => {
    const serve = await startServe();
    const list = await backends.slack.slashCommand(serve.appUrl, { text: 'markets "Acme Analytics"' });
    await backends.slack.waitFor(() => backends.slack.responsesFor(list.responseUrlId)[0], 5000);
    // The first Remove button under the markets table.
    const click = await backends.slack.blockAction(serve.appUrl, {
      actionId: 'vis:markets:remove:0',
      responseUrlId: list.responseUrlId,
    });
    expect(click.status).toBe(200);
    await backends.slack.waitFor(() => backends.slack.responsesFor(list.responseUrlId)[1], 5000);
    const again = await backends.slack.redeliverLast(serve.appUrl, { retryNum: 1 });
    expect(again.status).toBe(200);
    await serve.stop();
    expect(postsTo('/get-brands/markets', 'DELETE')).toHaveLength(1);
    expect(backends.slack.responsesFor(list.responseUrlId)).toHaveLength(2);
  });

  it('still recognises the redelivery after a restart', async () => {
    const first = await startServe();
    const cmd = await backends.slack.slashCommand(first.appUrl, { text: 'markets "Acme Analytics" add JP' });
    await backends.slack.waitFor(() => backends.slack.responsesFor(cmd.responseUrlId)[0], 5000);
    await first.stop();

    const second = await startServe();
    const again = await backends.slack.redeliverLast(second.appUrl, { retryNum: 1 });
    expect(again.status).toBe(200);
    await second.stop();
    expect(postsTo('/get-brands/markets', 'POST')).toHaveLength(1);
    expect(backends.slack.responsesFor(cmd.responseUrlId)).toHaveLength(1);
  });

  it('publishes the App Home once for a redelivered app_home_opened event', async () => {
    const serve = await startServe();
    const res = await backends.slack.event(serve.appUrl, {
      type: 'app_home_opened',
      user: USER,
      tab: 'home',
    });
    expect(res.status).toBe(200);
    await backends.slack.waitFor(() => backends.slack.callsTo('views.publish')[0], 5000);
    const again = await backends.slack.redeliverLast(serve.appUrl, {
      retryNum: 1,
      retryReason: 'http_error',
    });
    expect(again.status).toBe(200);
    await serve.stop();
    expect(backends.slack.callsTo('views.publish')).toHaveLength(1);
  });

  it('processes a retry whose original never arrived, once', async () => {
    const serve = await startServe();
    const lost = commandForm(hostedUrl('lost0000'), [], { text: 'markets "Acme Analytics" add IT' });
    const res = await backends.slack.postSigned(serve.appUrl, lost, {
      headers: { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' },
    });
    expect(res.status).toBe(200);
    const again = await backends.slack.postSigned(serve.appUrl, lost, {
      headers: { 'x-slack-retry-num': '2', 'x-slack-retry-reason': 'http_timeout' },
    });
    expect(again.status).toBe(200);
    await serve.stop();
    expect(postsTo('/get-brands/markets', 'POST')).toHaveLength(1);
  });
});

describe('the real process', () => {
  let child: ChildProcess | undefined;
  afterAll(() => {
    if (child?.exitCode === null) child.kill('SIGKILL');
  });

  it('keeps running after a signed payload=null, other hostile bodies and an unhandled rejection, then exits 0 on SIGTERM', async () => {
    const serve = await spawnServe(backends, ['--import', './test/fixtures/reject-on-sigusr2.mjs']);
    child = serve.child;
    const { url, exited } = serve;
    const appUrl = `${url}/slack/events`;

    for (const body of [
      'payload=null',
      'payload=%5B%5D',
      `payload=${encodeURIComponent('{"type":"block_actions"}')}`,
    ]) {
      const res = await backends.slack.postSigned(appUrl, body);
      expect({ body, status: res.status }).toEqual({ body, status: 200 });
    }
    const help = await backends.slack.slashCommand(appUrl, { text: 'help' });
    expect(help.status).toBe(200);
    await backends.slack.waitFor(() => backends.slack.responsesFor(help.responseUrlId)[0], 5000);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect(serve.child.exitCode).toBeNull();
    expect(serve.output()).toContain('slack_request_malformed');

    // A rejection no code handles is logged, not fatal.
    serve.child.kill('SIGUSR2');
    await backends.slack.waitFor(() => serve.output().includes('unhandled_rejection') || undefined, 5000);
    const after = await backends.slack.slashCommand(appUrl, { text: 'help' });
    await backends.slack.waitFor(() => backends.slack.responsesFor(after.responseUrlId)[0], 5000);
    expect(serve.child.exitCode).toBeNull();

    serve.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(serve.output()).not.toContain('TypeError');
    for (const secret of [backends.sim.apiKey, backends.slack.botToken, backends.slack.signingSecret])
      expect(serve.output()).not.toContain(secret);
  }, 30_000);
});
