/**
 * Buttons, forms and the App Home of the brand commands, through the local Slack: confirm
 * then remove, the Add market / location / aliases forms (an inline error, then success),
 * Share in channel, drill-down buttons, and the App Home.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { validateBlocks } from '../../src/dev/local-slack/index.js';
import { SEED_BRANDS } from '../../src/dev/simulator/index.js';
import { brandKit, resetWorld } from './brand-test-kit.js';
import { type Harness, startHarness } from './service-harness.js';

let h: Harness;
const k = brandKit(() => h);
const { acme, globex, initech } = SEED_BRANDS;
const USER = 'U0LOCALUSR';

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});
beforeEach(() => resetWorld(h));

const pick = (code: string) => ({ value: { type: 'static_select', selected_option: { value: code } } });
const text = (value: string) => ({ value: { type: 'plain_text_input', value } });

async function openedModal(callbackId: string) {
  const view = await h.slack.waitFor(
    () => h.slack.views().find((v) => v.callback_id === callbackId && !v.closed),
    5000,
  );
  expect(validateBlocks(view.blocks, 'modal')).toBeUndefined();
  return view;
}

describe('removing a market', () => {
  it('sends no DELETE until the confirmed click, then removes it and replaces the question', async () => {
    const { responseUrlId, reply } = await k.command('markets "Acme Analytics" remove Canada');
    const [button] = k.elements(reply, 'vis:markets:remove');
    expect(button!['confirm']).toMatchObject({ confirm: { text: 'Remove' }, deny: { text: 'Keep it' } });
    const market = (await k.simBrand(acme.id)).markets.find((m) => m.location === 'CA')!;
    expect(JSON.parse(String(button!['value']))).toEqual({
      brandId: acme.id,
      marketId: market.id,
      location: 'CA',
    });
    expect(k.writes()).toEqual([]);

    const after = await k.click(responseUrlId, 'vis:markets:remove');
    expect(k.writes()).toEqual([
      expect.objectContaining({
        method: 'DELETE',
        path: '/get-brands/markets',
        query: { brand_id: acme.id, market_id: market.id },
        status: 200,
      }),
    ]);
    expect(after.replace_original).toBe(true);
    expect(after.text).toContain('Removed the market *Canada (CA)*');
    expect((await k.simBrand(acme.id)).markets.map((m) => m.location)).not.toContain('CA');
    expect((await h.deps.auditLog.recent(1))[0]).toMatchObject({
      userId: USER,
      brandId: acme.id,
      action: 'remove markets',
      result: 'ok',
      detail: { marketId: market.id, location: 'CA' },
    });
  });

  it('explains the service’s refusal when the market is gone by the time of the click', async () => {
    const first = await k.command('markets "Acme Analytics" remove GB');
    const second = await k.command('markets "Acme Analytics" remove GB');
    await k.click(first.responseUrlId, 'vis:markets:remove');
    const late = await k.click(second.responseUrlId, 'vis:markets:remove');
    expect(late.text).toContain(
      'That market is no longer on Acme Analytics; it may have been removed already.',
    );
    expect(k.writes().map((w) => w.status)).toEqual([200, 404]);
    expect((await h.deps.auditLog.recent(1))[0]!.result).toBe('error: api_not_found');
  });
});

describe('the Add market form', () => {
  it('opens from the button, shows errors inline (unknown, duplicate), then adds and closes', async () => {
    const { responseUrlId } = await k.command('markets "Acme Analytics"');
    await h.slack.blockAction(h.appUrl, { actionId: 'vis:markets:add', responseUrlId });
    const view = await openedModal('vis:markets:add');
    expect(h.slack.callsTo('views.open')).toHaveLength(1);
    expect(JSON.parse(view.private_metadata)).toEqual({
      brandId: acme.id,
      channelId: h.slack.defaultChannelId,
    });

    const unknown = await h.slack.viewSubmission(h.appUrl, {
      callbackId: 'vis:markets:add',
      viewId: view.id,
      values: { country: pick('ZZ') },
    });
    expect(unknown.json).toMatchObject({
      response_action: 'errors',
      errors: { country: expect.stringContaining('ZZ') },
    });
    expect(k.writes()).toEqual([]);

    const duplicate = await h.slack.viewSubmission(h.appUrl, {
      callbackId: 'vis:markets:add',
      viewId: view.id,
      values: { country: pick('DE'), market_name: text('') },
    });
    expect(duplicate.json).toEqual({
      response_action: 'errors',
      errors: { country: expect.stringContaining('Market DE already exists') },
    });
    expect(h.slack.view(view.id)!.closed).toBe(false);

    const ok = await h.slack.viewSubmission(h.appUrl, {
      callbackId: 'vis:markets:add',
      viewId: view.id,
      values: { country: pick('JP'), market_name: text('Japan pilot') },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toBe('');
    expect(h.slack.view(view.id)!.closed).toBe(true);
    expect(k.writes().map((w) => [w.method, w.body, w.status])).toEqual([
      ['POST', { brand_id: acme.id, location: 'DE' }, 409],
      ['POST', { brand_id: acme.id, location: 'JP', market_name: 'Japan pilot' }, 201],
    ]);
    expect((await k.simBrand(acme.id)).markets.map((m) => m.location)).toContain('JP');
    // The confirmation reaches the user where the form was opened.
    const note = await h.slack.waitFor(() =>
      h.slack.ephemeralMessages(USER).find((m) => m.via === 'chat.postEphemeral'),
    );
    expect(note.text).toContain('Japan (JP)');
  });

  it('opens from `markets <brand> add` without a country', async () => {
    await h.slack.slashCommand(h.appUrl, { text: 'markets globex add' });
    const view = await openedModal('vis:markets:add');
    expect(JSON.stringify(view.blocks)).toContain('Globex Corporation');
    expect(k.writes()).toEqual([]);
  });
});

describe('the primary location form', () => {
  it('refuses a bad provider code inline, then saves', async () => {
    await h.slack.slashCommand(h.appUrl, { text: 'location "Acme Analytics"' });
    const view = await openedModal('vis:location:set');
    // The form starts from the current location.
    expect(JSON.stringify(view.blocks)).toContain(
      '"initial_option":{"text":{"type":"plain_text","text":"United States (US)"}',
    );
    expect(JSON.stringify(view.blocks)).toContain('San Francisco');

    const bad = await h.slack.viewSubmission(h.appUrl, {
      callbackId: 'vis:location:set',
      viewId: view.id,
      values: { country: pick('DE'), location_provider_code: text('12ab') },
    });
    expect(bad.json).toMatchObject({
      response_action: 'errors',
      errors: { location_provider_code: expect.stringContaining('positive whole number') },
    });
    expect(k.writes()).toEqual([]);

    const ok = await h.slack.viewSubmission(h.appUrl, {
      callbackId: 'vis:location:set',
      viewId: view.id,
      values: {
        country: pick('DE'),
        location_region: text('Bavaria'),
        location_city: text('Munich'),
        location_provider_code: text('1004074'),
      },
    });
    expect(ok.body).toBe('');
    expect(k.writes()).toEqual([
      expect.objectContaining({
        method: 'PUT',
        path: '/get-brands/location',
        body: {
          brand_id: acme.id,
          country: 'DE',
          location_region: 'Bavaria',
          location_city: 'Munich',
          location_provider_code: 1004074,
        },
      }),
    ]);
    expect((await k.simBrand(acme.id)).location).toBe('DE');
  });
});

describe('the Edit aliases form', () => {
  it('starts from the current list, refuses an over-long alias inline, then replaces the list', async () => {
    const { responseUrlId } = await k.command('aliases "Acme Analytics"');
    await h.slack.blockAction(h.appUrl, { actionId: 'vis:aliases:edit', responseUrlId });
    const view = await openedModal('vis:aliases:set');
    expect(JSON.stringify(view.blocks)).toContain(
      '"initial_value":"Acme\\nAcmeAnalytics\\nAcme Analytics Inc."',
    );

    const long = await h.slack.viewSubmission(h.appUrl, {
      callbackId: 'vis:aliases:set',
      viewId: view.id,
      values: { aliases: text(`Acme\n${'x'.repeat(120)}`) },
    });
    expect(long.json).toMatchObject({
      response_action: 'errors',
      errors: { aliases: expect.stringContaining('at most 100') },
    });
    expect(k.writes()).toEqual([]);

    const ok = await h.slack.viewSubmission(h.appUrl, {
      callbackId: 'vis:aliases:set',
      viewId: view.id,
      values: { aliases: text('Acme\nAcme Insights, acme\n\n  AcmeHQ  ') },
    });
    expect(ok.body).toBe('');
    expect(k.writes()).toEqual([
      expect.objectContaining({
        method: 'PUT',
        path: '/get-brands/aliases',
        body: { brand_id: acme.id, aliases: ['Acme', 'Acme Insights', 'AcmeHQ'] },
      }),
    ]);
    expect((await k.simBrand(acme.id)).aliases).toEqual(['Acme', 'Acme Insights', 'AcmeHQ']);
  });
});

describe('Share in channel', () => {
  it('re-runs the command and posts the answer in the channel, without the share button', async () => {
    const { responseUrlId, reply } = await k.command('markets "Acme Analytics"');
    expect(reply.response_type).toBe('ephemeral');
    expect(h.slack.messages(h.slack.defaultChannelId)).toHaveLength(0);
    const shared = await k.click(responseUrlId, 'vis:share');
    expect(shared.response_type).toBe('in_channel');
    const [message] = h.slack.messages(h.slack.defaultChannelId);
    expect(message!.ephemeralTo).toBeUndefined();
    expect(JSON.stringify(message!.blocks)).toContain('Markets of Acme Analytics (4)');
    expect(JSON.stringify(message!.blocks)).toContain(`Shared by <@${USER}>`);
    expect(k.elements({ blocks: message!.blocks ?? [] }, 'vis:share')).toEqual([]);
    // The shared copy is fresh: the command ran again.
    expect(k.brandReads()).toHaveLength(2);
  });

  it.each(['brand "Acme Analytics"', 'aliases globex', 'status'])('shares `%s`', async (command) => {
    const { responseUrlId } = await k.command(command);
    await k.click(responseUrlId, 'vis:share');
    expect(h.slack.messages(h.slack.defaultChannelId)).toHaveLength(1);
  });
});

describe('drill-down buttons (vis:open:…)', () => {
  it('opens the brand details from the brand list, as a new ephemeral message', async () => {
    const { responseUrlId } = await k.command('brands');
    const reply = await k.click(responseUrlId, 'vis:open:brand', {
      value: JSON.stringify({ brandId: globex.id }),
    });
    expect(reply.replace_original).toBe(false);
    expect(reply.response_type).toBe('ephemeral');
    expect(reply.blocks[0]).toMatchObject({ type: 'header', text: { text: 'Globex Corporation' } });
    expect(k.brandReads().at(-1)!.query).toEqual({ brand_id: globex.id, include: 'markets,aliases' });
  });

  it('opens the markets and aliases views from the brand details', async () => {
    const { responseUrlId } = await k.command('brand "Acme Analytics"');
    const messageTs = h.slack.responsesFor(responseUrlId)[0]!.messageTs!;
    const markets = await k.click(responseUrlId, 'vis:open:markets');
    expect(markets.text).toContain('Acme Analytics: 4 markets');
    const aliases = await k.click(responseUrlId, 'vis:open:aliases', { messageTs });
    expect(aliases.text).toContain('3 aliases');
  });

  it('opens every view the alert and digest buttons name, on the right endpoint', async () => {
    const targets: Array<[string, Record<string, string>, string, Record<string, string>]> = [
      [
        'vis:open:citations-feed',
        { url: 'https://www.g2.com/products/acme' },
        '/get-citations',
        { view: 'feed' },
      ],
      ['vis:open:ideas', {}, '/get-content-ideas', {}],
      ['vis:open:crawler', {}, '/crawler/overview', {}],
      ['vis:open:aipages', {}, '/ai-pages', {}],
    ];
    const posted = await h.deps.web.chat.postMessage({
      channel: h.slack.defaultChannelId,
      text: 'digest',
      blocks: [
        {
          type: 'actions',
          elements: targets.map(([actionId, extra]) => ({
            type: 'button',
            action_id: actionId,
            text: { type: 'plain_text', text: actionId.slice(9) },
            value: JSON.stringify({ brandId: acme.id, ...extra }),
          })),
        },
      ],
    });
    for (const [actionId, , path, query] of targets) {
      h.sim.requests.length = 0;
      const res = await h.slack.blockAction(h.appUrl, { actionId, messageTs: String(posted.ts) });
      const reply = await h.slack.waitFor(() => h.slack.responsesFor(res.responseUrlId)[0], 5000);
      expect(reply.status, actionId).toBe(200);
      expect((reply.body as { text: string }).text, actionId).not.toContain('no longer');
      expect(h.sim.requests.find((r) => r.path === path)?.query, actionId).toMatchObject({
        brand_id: acme.id,
        ...query,
      });
    }
    // The digest message in the channel is left as it was.
    expect(h.slack.messages(h.slack.defaultChannelId)).toHaveLength(1);
  });

  it('answers a button for a view this bot does not have with a readable message', async () => {
    const { responseUrlId } = await k.command('brands');
    h.sim.requests.length = 0;
    const click = await h.slack.blockAction(h.appUrl, {
      actionId: 'vis:open:brand',
      responseUrlId,
      value: 'not json',
    });
    expect(click.status).toBe(200);
    const reply = await h.slack.waitFor(() => h.slack.responsesFor(responseUrlId)[1], 5000);
    expect((reply.body as { text: string }).text).toContain('older message');
  });
});

describe('App Home', () => {
  it('publishes the brands at a glance with AI Pages usage, refreshed at each opening', async () => {
    await h.slack.event(h.appUrl, {
      type: 'app_home_opened',
      user: USER,
      tab: 'home',
      channel: 'D0LOCALUSR',
    });
    const view = await h.slack.waitFor(() => h.slack.homeView(USER), 5000);
    expect(validateBlocks(view.blocks, 'home')).toBeUndefined();
    const blocks = JSON.stringify(view.blocks);
    for (const b of Object.values(SEED_BRANDS)) expect(blocks).toContain(b.name);
    expect(blocks).toMatch(/AI Pages usage: `▰+▱* \d+ %` of the monthly limit/);
    expect(blocks).toContain('AI Pages: not set up');
    expect(blocks).toContain('AI Pages: not included in the plan');
    expect(blocks).toContain('Global mode');
    expect(blocks).toContain(`"block_id":"vis:home:${initech.id}"`);
    const aiPages = h.sim.requests.filter((r) => r.path === '/ai-pages');
    expect(aiPages.map((r) => r.query['brand_id']).sort()).toEqual(
      Object.values(SEED_BRANDS)
        .map((b) => b.id)
        .sort(),
    );

    // The Details button on the Home tab answers in the app's DM (no response_url there).
    await h.slack.blockAction(h.appUrl, {
      actionId: 'vis:open:markets',
      viewId: view.id,
      value: JSON.stringify({ brandId: acme.id }),
    });
    const dm = await h.slack.waitFor(() => h.slack.messages(`D${USER.slice(1)}`)[0], 5000);
    expect(dm.text).toContain('Acme Analytics: 4 markets');

    h.slack.reset();
    await h.slack.event(h.appUrl, {
      type: 'app_home_opened',
      user: USER,
      tab: 'home',
      channel: 'D0LOCALUSR',
    });
    await h.slack.waitFor(() => h.slack.homeView(USER), 5000);
    expect(h.slack.callsTo('views.publish')).toHaveLength(1);
  });

  it('gives guests a polite note and no brand data', async () => {
    h.slack.addUser({ id: 'U0GUEST01', name: 'guest', isRestricted: true });
    await h.slack.event(h.appUrl, {
      type: 'app_home_opened',
      user: 'U0GUEST01',
      tab: 'home',
      channel: 'D0GUEST01',
    });
    const view = await h.slack.waitFor(() => h.slack.homeView('U0GUEST01'), 5000);
    const blocks = JSON.stringify(view.blocks);
    expect(blocks).toContain('guest accounts cannot see it');
    expect(blocks).not.toContain('Acme');
    expect(h.sim.requests).toEqual([]);
  });
});
