import { describe, expect, it } from 'vitest';
import { useAckServer, useFixture } from './local-slack-fixture.js';

const f = useFixture();
const app = useAckServer();

const plain = (text: string) => ({ type: 'plain_text' as const, text });
const lastPayload = (): Record<string, unknown> =>
  JSON.parse(new URLSearchParams(app.requests.at(-1)?.body).get('payload') ?? 'null');

async function publishHome(): Promise<string> {
  const res = await f.client.views.publish({
    user_id: f.slack.defaultUserId,
    view: {
      type: 'home',
      blocks: [
        {
          type: 'actions',
          block_id: 'home_actions',
          elements: [{ type: 'button', action_id: 'home_refresh', text: plain('Refresh'), value: 'r' }],
        },
      ],
    },
  });
  return res.view!.id!;
}

async function openModal(): Promise<string> {
  await f.slack.slashCommand(app.url, { text: 'subscribe' });
  const trigger = new URLSearchParams(app.requests.at(-1)?.body).get('trigger_id')!;
  const res = await f.client.views.open({
    trigger_id: trigger,
    view: { type: 'modal', callback_id: 'subscribe', title: plain('Subscribe'), blocks: [] },
  });
  return res.view!.id!;
}

describe('block_actions from a view', () => {
  it('carries container view, the view, and no response_url', async () => {
    const viewId = await publishHome();
    const res = await f.slack.blockAction(app.url, { actionId: 'home_refresh', viewId });
    expect(res.responseUrlId).toBe('');
    const payload = lastPayload();
    expect(payload).toMatchObject({
      type: 'block_actions',
      container: { type: 'view', view_id: viewId },
      view: { id: viewId, type: 'home' },
      actions: [{ action_id: 'home_refresh', block_id: 'home_actions', type: 'button', value: 'r' }],
    });
    expect(payload).not.toHaveProperty('response_url');
    expect(app.requests.at(-1)?.headers['content-type']).toBe('application/x-www-form-urlencoded');
  });

  it('refuses a view it does not hold', async () => {
    await expect(f.slack.blockAction(app.url, { actionId: 'x', viewId: 'V0NOPE' })).rejects.toThrow(
      /no view V0NOPE/,
    );
  });
});

describe('view_submission', () => {
  it('is shaped like Slack’s and applies response_action update, push and clear', async () => {
    const viewId = await openModal();
    const values = { brand: { pick: { type: 'static_select', selected_option: { value: 'b1' } } } };
    app.answer.body = JSON.stringify({
      response_action: 'update',
      view: { type: 'modal', callback_id: 'step2', title: plain('Step 2'), blocks: [] },
    });
    const res = await f.slack.viewSubmission(app.url, {
      callbackId: 'subscribe',
      viewId,
      privateMetadata: '{"brand":"b1"}',
      values,
    });
    expect(res.json).toMatchObject({ response_action: 'update' });
    expect(lastPayload()).toMatchObject({
      type: 'view_submission',
      user: { id: f.slack.defaultUserId },
      view: { id: viewId, callback_id: 'subscribe', private_metadata: '{"brand":"b1"}', state: { values } },
    });
    expect(f.slack.view(viewId)).toMatchObject({ callback_id: 'step2', closed: false });

    app.answer.body = JSON.stringify({
      response_action: 'push',
      view: { type: 'modal', callback_id: 'step3', title: plain('Step 3'), blocks: [] },
    });
    await f.slack.viewSubmission(app.url, { callbackId: 'step2', viewId, values: {} });
    const pushed = f.slack.views().at(-1);
    expect(pushed).toMatchObject({ callback_id: 'step3', previous_view_id: viewId, root_view_id: viewId });

    app.answer.body = JSON.stringify({ response_action: 'clear' });
    await f.slack.viewSubmission(app.url, { callbackId: 'step2', viewId, values: {} });
    expect(f.slack.view(viewId)?.closed).toBe(true);
  });
});

describe('events', () => {
  it('wraps the event in Slack’s event_callback envelope, as JSON', async () => {
    await f.slack.event(app.url, { type: 'app_home_opened', user: f.slack.defaultUserId, tab: 'home' });
    const req = app.requests.at(-1)!;
    expect(req.headers['content-type']).toBe('application/json');
    expect(JSON.parse(req.body)).toMatchObject({
      type: 'event_callback',
      team_id: f.slack.teamId,
      event: { type: 'app_home_opened', user: f.slack.defaultUserId, tab: 'home' },
      authorizations: [{ user_id: f.slack.botUserId, is_bot: true }],
    });
    expect(JSON.parse(req.body).event_id).toMatch(/^Ev/);
  });
});
