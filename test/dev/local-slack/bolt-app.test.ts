import type { AddressInfo } from 'node:net';
import { App, LogLevel, verifySlackRequest } from '@slack/bolt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type LocalSlack,
  type RecordedCall,
  signSlackRequest,
  startLocalSlack,
} from '../../../src/dev/local-slack/index.js';
import { startAckServer } from './local-slack-fixture.js';

const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text } });

describe('signSlackRequest', () => {
  it('produces what Bolt’s own verifySlackRequest accepts', () => {
    const body = 'token=x&team_id=T1&command=%2Fvisibility&text=brands';
    const now = Date.UTC(2025, 0, 15, 9, 0, 0);
    const { signature, timestamp } = signSlackRequest('secret-1', body, now / 1000);
    expect(signature).toMatch(/^v0=[0-9a-f]{64}$/);
    const headers = { 'x-slack-signature': signature, 'x-slack-request-timestamp': Number(timestamp) };
    expect(() =>
      verifySlackRequest({ signingSecret: 'secret-1', body, headers, nowMilliseconds: now }),
    ).not.toThrow();
    expect(() => verifySlackRequest({ signingSecret: 'other', body, headers, nowMilliseconds: now })).toThrow(
      /signature mismatch/,
    );
    expect(() =>
      verifySlackRequest({ signingSecret: 'secret-1', body: `${body}&x=1`, headers, nowMilliseconds: now }),
    ).toThrow(/signature mismatch/);
  });

  it('matches Slack’s documented example', () => {
    // https://docs.slack.dev/authentication/verifying-requests-from-slack (worked example)
    const body =
      'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';
    const { signature } = signSlackRequest('8f742231b10e8888abcd99yyyzzz85a5', body, 1531420618);
    expect(signature).toBe('v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503');
  });
});

describe('a real Bolt app driven by the local Slack', () => {
  let slack: LocalSlack;
  let app: App;
  let appUrl: string;
  let authTestAtStart: RecordedCall;
  /** Held open by a test to show the ack does not wait for the work after it. */
  let replyGate: Promise<void> = Promise.resolve();
  const seen: { commands: string[]; actions: unknown[]; submissions: unknown[] } = {
    commands: [],
    actions: [],
    submissions: [],
  };

  beforeAll(async () => {
    slack = await startLocalSlack();
    app = new App({
      token: slack.botToken,
      signingSecret: slack.signingSecret,
      logLevel: LogLevel.ERROR,
      clientOptions: { slackApiUrl: slack.url, retryConfig: { retries: 0 } },
    });
    app.command('/visibility', async ({ ack, respond, command, client }) => {
      await ack();
      seen.commands.push(command.text);
      // The work after the ack waits for the test when it holds the gate.
      await replyGate;
      if (command.text === 'subscribe') {
        await client.views.open({
          trigger_id: command.trigger_id,
          view: {
            type: 'modal',
            callback_id: 'subscribe',
            private_metadata: 'brand-1',
            title: { type: 'plain_text', text: 'Subscribe' },
            submit: { type: 'plain_text', text: 'Save' },
            blocks: [
              {
                type: 'input',
                block_id: 'channel',
                label: { type: 'plain_text', text: 'Channel' },
                element: { type: 'plain_text_input', action_id: 'value' },
              },
            ],
          },
        });
        return;
      }
      await respond({
        text: `Brands for ${command.text}`,
        blocks: [
          section(`*Brands* (${command.text})`),
          {
            type: 'actions',
            block_id: 'brand_actions',
            elements: [
              {
                type: 'button',
                action_id: 'brand_open',
                value: 'brand-1',
                text: { type: 'plain_text', text: 'Open' },
              },
              {
                type: 'static_select',
                action_id: 'brand_range',
                placeholder: { type: 'plain_text', text: 'Range' },
                options: [
                  { text: { type: 'plain_text', text: 'Last 7 days' }, value: '7d' },
                  { text: { type: 'plain_text', text: 'Last 30 days' }, value: '30d' },
                ],
              },
            ],
          },
        ],
      });
    });
    app.action('brand_open', async ({ ack, respond, body, action }) => {
      await ack();
      seen.actions.push({ body, action });
      await respond({ replace_original: true, text: 'Acme Running: 42 citations' });
    });
    app.action('brand_range', async ({ ack, action }) => {
      await ack();
      seen.actions.push({ action });
    });
    app.view('subscribe', async ({ ack, view }) => {
      seen.submissions.push(view);
      const channel = (view.state.values['channel']?.['value'] as { value?: string } | undefined)?.value;
      if (!channel?.startsWith('C')) {
        await ack({ response_action: 'errors', errors: { channel: 'Pick a channel' } });
        return;
      }
      await ack();
    });
    app.event('app_home_opened', async ({ event, client }) => {
      await client.views.publish({
        user_id: event.user,
        view: { type: 'home', blocks: [section('Your brands')] },
      });
    });
    const server = await app.start(0);
    appUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
    // Bolt calls auth.test from its constructor without awaiting it.
    authTestAtStart = await slack.waitFor(() => slack.callsTo('auth.test')[0]);
  });

  afterAll(async () => {
    await app.stop();
    await slack.close();
  });

  beforeEach(() => {
    slack.reset();
    seen.commands.length = 0;
    seen.actions.length = 0;
    seen.submissions.length = 0;
  });

  it('Bolt called auth.test at start with the bot token', () => {
    expect(authTestAtStart).toMatchObject({
      token: slack.botToken,
      response: { ok: true, user_id: slack.botUserId },
    });
  });

  it('receives a signed slash command, acks before its work, and replies via respond() to the hosted response_url', async () => {
    let release = () => {};
    replyGate = new Promise((r) => {
      release = r;
    });
    // Answered while the work after the ack is still held: an ack that waited for the work
    // would never come, and the test would time out.
    const res = await slack.slashCommand(appUrl, { text: 'acme' });
    expect(res.status).toBe(200);
    expect(res.ackMs).toBeGreaterThan(0);
    expect(slack.responsesFor(res.responseUrlId)).toEqual([]);
    release();
    replyGate = Promise.resolve();
    const post = await slack.waitFor(() => slack.responsesFor(res.responseUrlId)[0]);
    expect(post).toMatchObject({ status: 200, body: { text: 'Brands for acme' } });
    expect(seen.commands).toEqual(['acme']);
    const [reply] = slack.ephemeralMessages(slack.defaultUserId);
    expect(reply?.text).toBe('Brands for acme');
  });

  it('sends the slash command as exactly application/x-www-form-urlencoded with Slack’s field set', async () => {
    const recorder = await startAckServer();
    try {
      await slack.slashCommand(recorder.url, { text: 'help', triggerId: '123.456.abc' });
      const [req] = recorder.requests;
      expect(req?.headers['content-type']).toBe('application/x-www-form-urlencoded');
      expect([...new URLSearchParams(req?.body).keys()]).toEqual([
        'token',
        'team_id',
        'team_domain',
        'channel_id',
        'channel_name',
        'user_id',
        'user_name',
        'command',
        'text',
        'api_app_id',
        'is_enterprise_install',
        'response_url',
        'trigger_id',
      ]);
      const fields = new URLSearchParams(req?.body);
      expect(fields.get('command')).toBe('/visibility');
      expect(fields.get('trigger_id')).toBe('123.456.abc');
      const headers = {
        'x-slack-signature': String(req?.headers['x-slack-signature']),
        'x-slack-request-timestamp': Number(req?.headers['x-slack-request-timestamp']),
      };
      expect(() =>
        verifySlackRequest({ signingSecret: slack.signingSecret, body: req!.body, headers }),
      ).not.toThrow();
    } finally {
      await recorder.close();
    }
  });

  it('rejects a request with a bad signature (Bolt answers 401)', async () => {
    const body = 'command=%2Fvisibility&text=x';
    const stale = slack.sign(body, Math.floor(Date.now() / 1000) - 600);
    const res = await fetch(appUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-slack-signature': stale.signature,
        'x-slack-request-timestamp': stale.timestamp,
      },
      body,
    });
    expect(res.status).toBe(401);
    expect(seen.commands).toEqual([]);
  });

  it('drives a button click on the reply, with Slack’s block_actions shape', async () => {
    const cmd = await slack.slashCommand(appUrl, { text: 'acme' });
    await slack.waitFor(() => slack.responsesFor(cmd.responseUrlId)[0]);
    const click = await slack.blockAction(appUrl, {
      actionId: 'brand_open',
      responseUrlId: cmd.responseUrlId,
    });
    expect(click.status).toBe(200);
    await slack.waitFor(() => slack.responsesFor(cmd.responseUrlId)[1]);
    const { body, action } = seen.actions[0] as {
      body: Record<string, unknown>;
      action: Record<string, unknown>;
    };
    expect(body).toMatchObject({
      type: 'block_actions',
      user: { id: slack.defaultUserId },
      container: { type: 'message', is_ephemeral: true, channel_id: slack.defaultChannelId },
      channel: { id: slack.defaultChannelId },
    });
    expect(body).not.toHaveProperty('message');
    expect(action).toMatchObject({
      type: 'button',
      action_id: 'brand_open',
      block_id: 'brand_actions',
      value: 'brand-1',
    });
    // replace_original replaced the ephemeral reply the button was on.
    expect(slack.ephemeralMessages(slack.defaultUserId).map((m) => m.text)).toEqual([
      'Acme Running: 42 citations',
    ]);
  });

  it('sends selected_option for selects and refuses to click what is not rendered', async () => {
    const cmd = await slack.slashCommand(appUrl, { text: 'acme' });
    await slack.waitFor(() => slack.responsesFor(cmd.responseUrlId)[0]);
    await slack.blockAction(appUrl, {
      actionId: 'brand_range',
      selectedOption: '30d',
      responseUrlId: cmd.responseUrlId,
    });
    const { action } = await slack.waitFor(
      () => seen.actions[0] as { action: Record<string, unknown> } | undefined,
    );
    expect(action).toMatchObject({
      type: 'static_select',
      selected_option: { value: '30d', text: { type: 'plain_text', text: 'Last 30 days' } },
    });
    await expect(
      slack.blockAction(appUrl, { actionId: 'no_such_button', responseUrlId: cmd.responseUrlId }),
    ).rejects.toThrow(/no element with action_id "no_such_button"/);
  });

  it('carries the channel message on actions from a posted message', async () => {
    const posted = await app.client.chat.postMessage({
      channel: slack.defaultChannelId,
      text: 'Alert',
      blocks: [
        {
          type: 'actions',
          elements: [{ type: 'button', action_id: 'brand_open', text: { type: 'plain_text', text: 'Open' } }],
        },
      ],
    });
    await slack.blockAction(appUrl, { actionId: 'brand_open', messageTs: posted.ts! });
    const { body } = await slack.waitFor(
      () => seen.actions[0] as { body: Record<string, unknown> } | undefined,
    );
    expect(body['message']).toMatchObject({ ts: posted.ts, text: 'Alert' });
    await slack.waitFor(() =>
      slack.messages(slack.defaultChannelId).find((m) => m.text === 'Acme Running: 42 citations'),
    );
  });

  it('opens a modal with the command’s trigger_id and submits it (errors, then close)', async () => {
    await slack.slashCommand(appUrl, { text: 'subscribe' });
    const opened = await slack.waitFor(() => slack.callsTo('views.open').at(-1));
    expect(opened.response).toMatchObject({ ok: true });
    const viewId = (opened.response['view'] as { id: string }).id;

    const bad = await slack.viewSubmission(appUrl, {
      callbackId: 'subscribe',
      viewId,
      values: { channel: { value: { type: 'plain_text_input', value: 'general' } } },
    });
    expect(bad.json).toEqual({ response_action: 'errors', errors: { channel: 'Pick a channel' } });
    expect(slack.view(viewId)?.closed).toBe(false);

    const good = await slack.viewSubmission(appUrl, {
      callbackId: 'subscribe',
      viewId,
      values: { channel: { value: { type: 'plain_text_input', value: 'C0LOCALGEN' } } },
    });
    expect(good.status).toBe(200);
    expect(slack.view(viewId)?.closed).toBe(true);
    expect(seen.submissions[0]).toMatchObject({
      id: viewId,
      callback_id: 'subscribe',
      private_metadata: 'brand-1',
    });
  });

  it('delivers an app_home_opened event; the app publishes the Home view', async () => {
    const res = await slack.event(appUrl, {
      type: 'app_home_opened',
      user: slack.defaultUserId,
      tab: 'home',
    });
    expect(res.status).toBe(200);
    const home = await slack.waitFor(() => slack.homeView(slack.defaultUserId));
    expect(home.blocks).toEqual([section('Your brands')]);
  });
});
