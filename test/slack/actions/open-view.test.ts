/**
 * Every drill-down button the bot emits (brand list, brand details, App Home, alerts,
 * digests) maps to a subcommand run: `vis:open:<cmd>[-<sub>]` → `<cmd> <brandId> [<sub>]`.
 */
import { describe, expect, it } from 'vitest';
import { openViews } from '../../../src/alerts/types.js';
import { DIGEST_OPEN_ACTIONS } from '../../../src/messages/digest-message.js';
import type { Subcommand } from '../../../src/slack/commands/subcommand.js';
import { BRAND_VIEW_BUTTONS } from '../../../src/slack/features/brands/brand-detail-view.js';
import { BRAND_BUTTONS } from '../../../src/slack/features/brands/brand-list-view.js';
import { HOME_BUTTONS } from '../../../src/slack/features/home/home-view.js';
import { openViewRun } from '../../../src/slack/routers/actions/open-view.js';

const stub = (name: string, aliases: string[] = [], usage = ''): Subcommand => ({
  name,
  aliases,
  group: 'Brands',
  usage,
  summary: '',
  examples: [],
  run: async () => {},
});
const LIST = [
  stub('brand'),
  stub('markets'),
  stub('aliases'),
  stub('citations', [], '/visibility citations <brand> [feed] [--url U] [--days-back N]'),
  stub('crawler'),
  stub('ideas'),
  stub('ai-pages', ['aipages']),
];
const BRAND = 'a1c3e5f7-2b4d-4f60-8a1c-3e5f7a9b0c11';

describe('openViewRun', () => {
  it('maps a plain view to its subcommand with the brand id', () => {
    expect(openViewRun('vis:open:markets', { brandId: BRAND }, LIST)).toEqual({
      name: 'markets',
      positional: [BRAND],
      flags: {},
      rawText: `markets ${BRAND}`,
    });
  });

  it('maps <cmd>-<sub> to the subcommand with <sub> after the brand', () => {
    expect(openViewRun('vis:open:citations-feed', { brandId: BRAND }, LIST)).toMatchObject({
      name: 'citations',
      positional: [BRAND, 'feed'],
    });
  });

  it('prefers a whole name (or alias) that has a dash', () => {
    expect(openViewRun('vis:open:ai-pages', { brandId: BRAND }, LIST)).toMatchObject({
      name: 'ai-pages',
      positional: [BRAND],
    });
    expect(openViewRun('vis:open:aipages', { brandId: BRAND }, LIST)).toMatchObject({
      name: 'aipages',
      positional: [BRAND],
    });
  });

  it('turns the value’s other keys into flags', () => {
    const run = openViewRun(
      'vis:open:citations-feed',
      { brandId: BRAND, url: 'https://x.example/a b', n: 3 },
      LIST,
    );
    expect(run.flags).toEqual({ url: 'https://x.example/a b' });
    expect(run.rawText).toBe(`citations ${BRAND} feed --url "https://x.example/a b"`);
  });

  it('refuses a value without a brand', () => {
    expect(() => openViewRun('vis:open:markets', {}, LIST)).toThrow(/older message/);
    expect(() => openViewRun('vis:open:', { brandId: BRAND }, LIST)).toThrow(/older message/);
  });

  it('resolves every drill-down the bot emits to a subcommand name', () => {
    const emitted = [
      ...BRAND_BUTTONS.map((b) => b.actionId),
      ...BRAND_VIEW_BUTTONS.map((b) => b.actionId),
      ...HOME_BUTTONS.map((b) => b.actionId),
      ...Object.values(DIGEST_OPEN_ACTIONS),
      ...openViews.map((v) => `vis:open:${v}`),
    ];
    const names = new Set(LIST.flatMap((s) => [s.name, ...(s.aliases ?? [])]));
    for (const actionId of emitted) {
      expect(names, actionId).toContain(openViewRun(actionId, { brandId: BRAND }, LIST).name);
    }
  });
});
