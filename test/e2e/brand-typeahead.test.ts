/**
 * The type-ahead brand select, end to end: the local Slack sends signed block_suggestion
 * requests to the real app, as Slack does while a person types, and reads the options the
 * app answers. The simulator holds 130 brands, more than a static select can show.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { validateBlocks } from '../../src/dev/local-slack/index.js';
import { SEED_BRANDS } from '../../src/dev/simulator/index.js';
import { brandKit, resetWorld } from './brand-test-kit.js';
import { type Harness, startHarness } from './service-harness.js';

let h: Harness;
const k = brandKit(() => h);
const { acme, acmeLabs, northwind, globex } = SEED_BRANDS;
const BRANDS = 130;

beforeAll(async () => {
  h = await startHarness({ simulator: { brands: BRANDS } });
});
afterAll(async () => {
  await h?.close();
});
beforeEach(() => resetWorld(h));

const pick = (code: string) => ({ value: { type: 'static_select', selected_option: { value: code } } });
const brandPicked = (id: string | null) => ({
  'vis:brand-select': { type: 'external_select', selected_option: id === null ? null : { value: id } },
});

/** `markets add` with no brand and no channel default: the Add market form, asking which brand. */
async function openBrandlessForm() {
  const res = await h.slack.slashCommand(h.appUrl, { text: 'markets add' });
  expect(res.status).toBe(200);
  const view = await h.slack.waitFor(
    () => h.slack.views().find((v) => v.callback_id === 'vis:markets:add' && !v.closed),
    5000,
  );
  expect(validateBlocks(view.blocks, 'modal')).toBeUndefined();
  return view;
}

async function typeInForm(viewId: string, value: string) {
  const res = await h.slack.blockSuggestion(h.appUrl, { actionId: 'vis:brand-select', viewId, value });
  expect(res.status).toBe(200);
  return res.options;
}

const labels = (options: Array<{ text: { text: string } }>) => options.map((o) => o.text.text);

describe('the brand select in a form', () => {
  it('is a type-ahead select served by the bot, above the form’s own inputs', async () => {
    const view = await openBrandlessForm();
    const brandBlock = view.blocks[1] as Record<string, unknown>;
    expect(brandBlock).toMatchObject({
      type: 'input',
      block_id: 'brand',
      label: { text: 'Brand' },
      element: { type: 'external_select', action_id: 'vis:brand-select', min_query_length: 0 },
    });
    expect(JSON.parse(view.private_metadata)).toEqual({ channelId: h.slack.defaultChannelId });
    expect(JSON.stringify(view.blocks[0])).toContain('Add a geographic market to a brand');
  });

  it('offers the brands whose name starts with what was typed, exact names first', async () => {
    const view = await openBrandlessForm();
    const options = await typeInForm(view.id, 'acme');
    expect(labels(options).slice(0, 2)).toEqual(['Acme Analytics', 'Acme Labs']);
    expect(options.slice(0, 2).map((o) => o.value)).toEqual([acme.id, acmeLabs.id]);
    for (const label of labels(options)) expect(label.toLowerCase()).toContain('acme');

    const exact = await typeInForm(view.id, 'Acme Labs');
    expect(labels(exact)).toEqual(['Acme Labs']);
  });

  it('finds a brand by an alias and says which alias matched', async () => {
    const view = await openBrandlessForm();
    const options = await typeInForm(view.id, 'acme ml');
    expect(options[0]).toEqual({
      text: { type: 'plain_text', text: 'Acme Labs (alias “Acme ML”)', emoji: false },
      value: acmeLabs.id,
    });
    const byAliasPrefix = await typeInForm(view.id, 'Northwind Out');
    expect(byAliasPrefix.map((o) => o.value)).toContain(northwind.id);
  });

  it('finds a later word of a name, lists nothing for a name it does not know', async () => {
    const view = await openBrandlessForm();
    expect((await typeInForm(view.id, 'corporation')).map((o) => o.value)).toContain(globex.id);
    expect(await typeInForm(view.id, 'zzqx')).toEqual([]);
  });

  it('shows at most 100 options when nothing is typed yet, read from the one cached brand list', async () => {
    const view = await openBrandlessForm();
    const before = h.sim.requests.filter((r) => r.path === '/get-brands').length;
    const options = await typeInForm(view.id, '');
    expect(options).toHaveLength(100);
    expect(new Set(options.map((o) => o.value)).size).toBe(100);
    await typeInForm(view.id, 'a');
    await typeInForm(view.id, 'ac');
    // The brand list was read once (for the command); typing asks the service nothing.
    expect(h.sim.requests.filter((r) => r.path === '/get-brands').length).toBe(before);
  });

  it('lists no brands to a guest account', async () => {
    const view = await openBrandlessForm();
    h.slack.addUser({ id: 'U0GUEST02', name: 'guest', isRestricted: true });
    const res = await h.slack.blockSuggestion(h.appUrl, {
      actionId: 'vis:brand-select',
      viewId: view.id,
      value: 'acme',
      userId: 'U0GUEST02',
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ options: [] });
  });

  it('the local Slack refuses to type into a select that is not rendered', async () => {
    const view = await openBrandlessForm();
    await expect(
      h.slack.blockSuggestion(h.appUrl, { actionId: 'value', viewId: view.id, value: 'x' }),
    ).rejects.toThrow(/no external select/);
  });

  it('asks for a brand under the select when none was picked, and saves nothing', async () => {
    const view = await openBrandlessForm();
    const res = await h.slack.viewSubmission(h.appUrl, {
      callbackId: 'vis:markets:add',
      viewId: view.id,
      values: { brand: brandPicked(null), country: pick('JP') },
    });
    expect(res.json).toEqual({ response_action: 'errors', errors: { brand: 'Pick a brand.' } });
    expect(k.writes()).toEqual([]);
  });

  it('adds the market to the brand picked through the type-ahead', async () => {
    const view = await openBrandlessForm();
    const [labs] = await typeInForm(view.id, 'Acme ML');
    const res = await h.slack.viewSubmission(h.appUrl, {
      callbackId: 'vis:markets:add',
      viewId: view.id,
      values: { brand: brandPicked(labs!.value), country: pick('JP') },
    });
    expect(res.status).toBe(200);
    expect(h.slack.view(view.id)!.closed).toBe(true);
    expect(k.writes().map((w) => [w.method, w.body, w.status])).toEqual([
      ['POST', { brand_id: acmeLabs.id, location: 'JP' }, 201],
    ]);
  });
});

describe('the "Which brand?" picker with more brands than a static select holds', () => {
  it('types ahead in the message and runs the command for the brand chosen', async () => {
    const { responseUrlId, reply } = await k.command('citations history --days 30');
    expect(reply.text).toContain('Which brand? Pick one');
    const [select] = k.elements(reply, 'vis:choose-brand');
    expect(select).toMatchObject({ type: 'external_select', min_query_length: 0 });
    expect(select!['options']).toBeUndefined();

    const typed = await h.slack.blockSuggestion(h.appUrl, {
      actionId: 'vis:choose-brand',
      responseUrlId,
      value: 'glob',
    });
    expect(typed.status).toBe(200);
    expect(labels(typed.options)[0]).toBe('Globex Corporation');

    const block = reply.blocks.find((b) => b['type'] === 'actions')!;
    const answer = await k.click(responseUrlId, 'vis:choose-brand', {
      blockId: String(block['block_id']),
      selectedOption: typed.options[0]!.value,
    });
    expect(answer.replace_original).toBe(true);
    const asked = h.sim.requests.filter((r) => r.path === '/get-citations');
    expect(asked.map((r) => [r.query['brand_id'], r.query['days']])).toEqual([[globex.id, '30']]);
  });
});
