/**
 * Finding the brand a person meant, end to end through the local Slack and the simulator:
 * aliases match, an ambiguous name answers with one button per brand that runs the command
 * for it, a misspelt view after a brand is called a view, and quoted alias names keep
 * their commas.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SEED_BRANDS } from '../../src/dev/simulator/index.js';
import { brandKit, resetWorld } from './brand-test-kit.js';
import { type Harness, startHarness } from './service-harness.js';

let h: Harness;
const k = brandKit(() => h);
const { acme, acmeLabs, initech } = SEED_BRANDS;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});
beforeEach(() => resetWorld(h));

/** GET /get-brands requests for the whole list (the brand cache's). */
const listReads = () =>
  h.sim.requests.filter((r) => r.method === 'GET' && r.path === '/get-brands' && !r.query['brand_id']);

describe('brands by alias', () => {
  it('finds a brand by an alias, exactly, before a longer name it begins', async () => {
    const { reply } = await k.command('brand "Acme"');
    expect(reply.text).toContain('Acme Analytics');
    expect(reply.text).not.toContain('Which one');
    expect(k.brandReads().at(-1)!.query['brand_id']).toBe(acme.id);
  });

  it('finds a brand by a multi-word alias, in any case', async () => {
    const { reply } = await k.command('brand "acme ml"');
    expect(reply.text).toContain('Acme Labs');
    expect(reply.text).not.toContain('Did you mean');
    expect(k.brandReads().at(-1)!.query['brand_id']).toBe(acmeLabs.id);
  });

  it('reads the aliases with the one cached brand list, not one call per command', async () => {
    await k.command('brand "Acme ML"');
    await k.command('markets Acme');
    expect(listReads().map((r) => r.query)).toEqual([{ include: 'aliases' }]);
  });

  it('matches an alias just set, without waiting for the cache to expire', async () => {
    await k.command('brand Initech');
    await k.command('aliases Initech set Initrode');
    const before = k.brandReads().length;
    const { reply } = await k.command('brand Initrode');
    expect(reply.text).not.toContain('No brand called');
    expect(
      k
        .brandReads()
        .slice(before)
        .map((r) => r.query['brand_id']),
    ).toEqual([initech.id]);
  });
});

describe('an ambiguous brand', () => {
  it('offers one button per candidate; a click runs the command for that brand', async () => {
    const { responseUrlId, reply } = await k.command('markets Acm');
    expect(reply.text).toContain('"Acm" matches *Acme Analytics*, *Acme Labs*. Which one?');
    const buttons = reply.blocks.flatMap((b) =>
      b['type'] === 'actions' ? (b['elements'] as Array<Record<string, unknown>>) : [],
    );
    const labels = buttons.map((b) => (b['text'] as { text: string }).text);
    expect(labels).toEqual(['Acme Analytics', 'Acme Labs']);
    expect(buttons.map((b) => b['value'])).toEqual([`markets ${acme.id}`, `markets ${acmeLabs.id}`]);
    expect(k.brandReads()).toEqual([]);

    const answer = await k.click(responseUrlId, String(buttons[1]!['action_id']), {
      value: String(buttons[1]!['value']),
    });
    expect(answer.replace_original).toBe(true);
    expect(answer.text).toContain('Acme Labs');
    expect(k.brandReads().map((r) => r.query['brand_id'])).toEqual([acmeLabs.id]);
  });

  it('keeps the rest of the command, flags included, on the buttons', async () => {
    const { reply } = await k.command('citations Acm history --days 30');
    const values = reply.blocks
      .flatMap((b) => (b['type'] === 'actions' ? (b['elements'] as Array<Record<string, unknown>>) : []))
      .map((b) => b['value']);
    expect(values).toEqual([
      `citations ${acme.id} history --days 30`,
      `citations ${acmeLabs.id} history --days 30`,
    ]);
  });
});

describe('a command without a brand', () => {
  it('offers a brand select; choosing runs the command for that brand', async () => {
    const { responseUrlId, reply } = await k.command('citations history --days 30');
    expect(reply.text).toContain('Which brand? Pick one');
    const [select] = k.elements(reply, 'vis:choose-brand');
    const options = select!['options'] as Array<{ text: { text: string }; value: string }>;
    expect(options.map((o) => o.text.text)).toContain('Acme Labs');
    const block = reply.blocks.find((b) => b['type'] === 'actions')!;
    const labsOption = options.find((o) => o.text.text === 'Acme Labs')!;

    const answer = await k.click(responseUrlId, 'vis:choose-brand', {
      blockId: String(block['block_id']),
      selectedOption: labsOption.value,
    });
    expect(answer.replace_original).toBe(true);
    expect(answer.text).not.toContain('Which brand?');
    const asked = h.sim.requests.filter((r) => r.path === '/get-citations');
    expect(asked.map((r) => [r.query['brand_id'], r.query['days']])).toEqual([[acmeLabs.id, '30']]);
  });
});

describe('a misspelt view after the brand', () => {
  it.each([
    ['citations "Acme Analytics" histroy', 'Unknown view "histroy" — did you mean history?'],
    ['citations Acme Analytics histroy', 'Unknown view "histroy" — did you mean history?'],
    ['citations Acme histroy', 'Unknown view "histroy" — did you mean history?'],
    ['crawler "Acme Analytics" livee', 'Unknown view "livee" — did you mean live?'],
    ['crawler Acme Labs acess', 'Unknown view "acess" — did you mean access?'],
  ])('`%s` blames the view, not the brand', async (command, expected) => {
    const { reply } = await k.command(command);
    expect(reply.text).toContain(expected);
    expect(reply.text).not.toContain('No brand called');
    expect(h.sim.requests.filter((r) => r.path !== '/get-brands')).toEqual([]);
  });

  it('lists the views when the word is nothing like one', async () => {
    const { reply } = await k.command('crawler "Acme Analytics" zzzzzz');
    expect(reply.text).toContain('Unknown view "zzzzzz". The views are overview, live, pages, access');
  });

  it('still blames the brand when no brand starts the words', async () => {
    const { reply } = await k.command('citations Acne Analytics history');
    expect(reply.text).toContain('No brand called "Acne Analytics". Did you mean *Acme Analytics*?');
  });
});

describe('aliases set with quoted names', () => {
  it('keeps commas inside quotes and shows each stored name', async () => {
    const { reply } = await k.command('aliases Initech set Initech, "Initech, Inc.", 🚀Rocket');
    expect(k.writes().map((w) => w.body)).toEqual([
      { brand_id: initech.id, aliases: ['Initech', 'Initech, Inc.', '🚀Rocket'] },
    ]);
    expect((await k.simBrand(initech.id)).aliases).toEqual(['Initech', 'Initech, Inc.', '🚀Rocket']);
    expect(reply.text).toContain('Now (3): “Initech”, “Initech, Inc.”, “🚀Rocket”');
    expect(reply.text).toContain('removed *Initech Software*, *Initech TPS*');
  });

  it('keeps such a name whole when the edit form is saved unchanged', async () => {
    await k.command('aliases Initech set "Initech, Inc.", Initrode');
    const { responseUrlId } = await k.command('aliases Initech');
    await h.slack.blockAction(h.appUrl, { actionId: 'vis:aliases:edit', responseUrlId });
    const view = await h.slack.waitFor(
      () => h.slack.views().find((v) => v.callback_id === 'vis:aliases:set' && !v.closed),
      5000,
    );
    const initial = JSON.stringify(view.blocks).match(/"initial_value":("(?:[^"\\]|\\.)*")/)?.[1];
    expect(initial && JSON.parse(initial)).toBe('"Initech, Inc."\nInitrode');
    await h.slack.viewSubmission(h.appUrl, {
      callbackId: 'vis:aliases:set',
      viewId: view.id,
      values: { aliases: { value: { type: 'plain_text_input', value: JSON.parse(initial!) as string } } },
    });
    expect(k.writes().at(-1)!.body).toEqual({ brand_id: initech.id, aliases: ['Initech, Inc.', 'Initrode'] });
  });
});
