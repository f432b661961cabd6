/**
 * The extension points later work builds on (action, submission and App Home
 * registries), driven through the local Slack like real clicks, submits and tab opens.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SEED_BRANDS } from '../../src/dev/simulator/index.js';
import { escapeMrkdwn, mrkdwn } from '../../src/messages/mrkdwn.js';
import { textReply } from '../../src/messages/reply.js';
import { parseActionValue } from '../../src/slack/actions/parse-action-value.js';
import { actionHandlers } from '../../src/slack/routers/actions/registry.js';
import { homeHandlers } from '../../src/slack/routers/events/registry.js';
import { submissionHandlers } from '../../src/slack/routers/submissions/registry.js';
import { type Harness, startHarness } from './service-harness.js';

let h: Harness;
const submitted: string[] = [];

// This file runs in its own process: the registries are swapped for test handlers only, so
// the real handlers other work registers do not answer these clicks first.
const saved = {
  actions: actionHandlers.splice(0),
  submissions: submissionHandlers.splice(0),
  home: homeHandlers.splice(0),
};

beforeAll(async () => {
  actionHandlers.push({
    prefix: 'vis:open:brand',
    async run(ctx) {
      const { brandId } = parseActionValue(ctx.action.value);
      const brand = await ctx.resolveBrand(String(brandId));
      await ctx.respond(
        textReply(mrkdwn`Opened *${escapeMrkdwn(brand.name)}* in ${escapeMrkdwn(ctx.channelId ?? '')}`),
      );
    },
  });
  submissionHandlers.push({
    callbackId: 'vis:test:rename',
    async run(ctx) {
      const name = (ctx.values['name']?.['input'] as { value?: string } | undefined)?.value ?? '';
      if (name.trim() === '') return { errors: { name: 'Give it a name' } };
      return { close: true, afterAck: async () => void submitted.push(name) };
    },
  });
  homeHandlers.push({
    name: 'test-home',
    async run(ctx) {
      await ctx.ensureMember();
      await ctx.publish({
        type: 'home',
        blocks: Array.from({ length: 130 }, (_, i) => ({
          type: 'section',
          text: { type: 'mrkdwn', text: `row ${i}` },
        })),
      });
    },
  });
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
  actionHandlers.splice(0, actionHandlers.length, ...saved.actions);
  submissionHandlers.splice(0, submissionHandlers.length, ...saved.submissions);
  homeHandlers.splice(0, homeHandlers.length, ...saved.home);
});
beforeEach(() => {
  h.slack.reset();
  h.sim.control.reset();
});

async function brandsMessage() {
  const res = await h.slack.slashCommand(h.appUrl, { text: 'brands' });
  await h.slack.waitFor(() => h.slack.responsesFor(res.responseUrlId)[0], 5000);
  return res.responseUrlId;
}

describe('actions', () => {
  it('acks a vis: button and runs the handler registered for its prefix', async () => {
    const responseUrlId = await brandsMessage();
    const click = await h.slack.blockAction(h.appUrl, { actionId: 'vis:open:brand', responseUrlId });
    expect(click.status).toBe(200);
    const reply = await h.slack.waitFor(() => h.slack.responsesFor(responseUrlId)[1], 5000);
    expect(reply.status).toBe(200);
    expect((reply.body as { text: string }).text).toBe(`Opened *${SEED_BRANDS.acme.name}* in C0LOCALGEN`);
    // the brand list came from the short cache: one GET /get-brands for command and click
    expect(h.sim.requests.filter((r) => r.path === '/get-brands')).toHaveLength(1);
  });

  it('tells the user when no handler knows the button', async () => {
    const responseUrlId = await brandsMessage();
    await h.slack.blockAction(h.appUrl, { actionId: 'vis:open:crawler', responseUrlId });
    const reply = await h.slack.waitFor(() => h.slack.responsesFor(responseUrlId)[1], 5000);
    expect((reply.body as { text: string }).text).toContain('no longer does anything');
  });
});

describe('view submissions', () => {
  it('returns validation errors in the ack, and closes + runs afterAck when valid', async () => {
    const invalid = await h.slack.viewSubmission(h.appUrl, {
      callbackId: 'vis:test:rename',
      viewId: 'V0TEST01',
      values: { name: { input: { type: 'plain_text_input', value: ' ' } } },
    });
    expect(invalid.status).toBe(200);
    expect(invalid.json).toEqual({ response_action: 'errors', errors: { name: 'Give it a name' } });

    const valid = await h.slack.viewSubmission(h.appUrl, {
      callbackId: 'vis:test:rename',
      viewId: 'V0TEST01',
      values: { name: { input: { type: 'plain_text_input', value: 'Acme EU' } } },
    });
    expect(valid.status).toBe(200);
    expect(valid.body).toBe('');
    await h.slack.waitFor(() => submitted.includes('Acme EU'));
  });
});

describe('App Home', () => {
  it('runs the home handlers on app_home_opened and fits the view to 100 blocks', async () => {
    const res = await h.slack.event(h.appUrl, {
      type: 'app_home_opened',
      user: 'U0LOCALUSR',
      tab: 'home',
      channel: 'D0LOCAL',
    });
    expect(res.status).toBe(200);
    const view = await h.slack.waitFor(() => h.slack.homeView('U0LOCALUSR'), 5000);
    expect(view.blocks).toHaveLength(100);
    expect(JSON.stringify(view.blocks.at(-1))).toContain('…and 31 more not shown');
  });

  it('ignores the Messages tab', async () => {
    await h.slack.event(h.appUrl, {
      type: 'app_home_opened',
      user: 'U0LOCALUSR',
      tab: 'messages',
      channel: 'D0LOCAL',
    });
    await h.slack.slashCommand(h.appUrl, { text: 'help' });
    await h.slack.waitFor(() => h.slack.responses[0], 5000);
    expect(h.slack.callsTo('views.publish')).toHaveLength(0);
  });
});
