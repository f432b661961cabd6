/** The View menu: one select per reply, commands kept whole, the view on screen preselected. */
import { describe, expect, it } from 'vitest';
import { citationViewChoices } from '../../../src/slack/features/citations/citation-switcher.js';
import { crawlerTabChoices } from '../../../src/slack/features/crawler/crawler-switcher.js';
import {
  SWITCH_VIEW_ACTION_ID,
  switchedCommand,
  viewSwitcher,
} from '../../../src/slack/views/view-switcher.js';

const brandId = '0b8e2a4c-1d3f-4a5b-8c7d-9e0f1a2b3c4d';

interface Option {
  text: { text: string };
  value: string;
}
const menuOf = (el: unknown) => el as { action_id: string; options: Option[]; initial_option?: Option };

describe('viewSwitcher', () => {
  it('carries the words every choice shares once, in the action_id, and each option gives back its whole command', () => {
    const choices = citationViewChoices({ brandId, current: 'history', days: 14 });
    const menu = menuOf(viewSwitcher(choices));
    expect(menu.action_id).toBe(`${SWITCH_VIEW_ACTION_ID}:citations ${brandId}`);
    expect(menu.options.map((o) => switchedCommand(menu.action_id, o.value))).toEqual(
      choices.map((c) => c.command),
    );
    expect(menu.options.map((o) => o.value)).toEqual([
      'list',
      'history --days 14',
      'queries',
      'sources --most-cited',
      'feed --days-back 14',
      'heatmap',
    ]);
    expect(menu.initial_option).toEqual(menu.options[1]);
  });

  it('keeps a range on every crawler tab, offers each Live view and Pages lens, and leaves filters behind', () => {
    const range = { rangePreset: 'custom', startDate: '2026-01-01', endDate: '2026-01-31' } as const;
    const choices = crawlerTabChoices(brandId, { tab: 'pages', mode: 'paths' }, range);
    const r = '2026-01-01..2026-01-31';
    expect(choices.map((c) => [c.label, c.command])).toEqual([
      ['Overview', `crawler ${brandId} ${r}`],
      ['Live: visits', `crawler ${brandId} live ${r}`],
      ['Live: pages visited', `crawler ${brandId} live ${r} --view pages`],
      ['Live: sessions', `crawler ${brandId} live ${r} --view sessions`],
      ['Pages', `crawler ${brandId} pages ${r}`],
      ['Pages: by path', `crawler ${brandId} pages ${r} --lens paths`],
      ['Pages: by crawler', `crawler ${brandId} pages ${r} --lens bots`],
      ['Access', `crawler ${brandId} access ${r}`],
    ]);
    expect(choices.filter((c) => c.current).map((c) => c.label)).toEqual(['Pages: by path']);
    // No view given is the default view.
    const live = crawlerTabChoices(brandId, { tab: 'live' }, undefined);
    expect(live.filter((c) => c.current).map((c) => c.label)).toEqual(['Live: visits']);
  });

  it('leaves out a choice whose command would be cut, and offers no menu with one view left', () => {
    const long = `sources ${'x'.repeat(160)}.com`;
    const menu = menuOf(
      viewSwitcher([
        { label: 'History', command: `citations ${brandId} history`, current: true },
        { label: 'Sources', command: `citations ${brandId} ${long}` },
        { label: 'Feed', command: `citations ${brandId} feed` },
      ]),
    );
    expect(menu.options.map((o) => o.text.text)).toEqual(['History ✓', 'Feed']);
    expect(viewSwitcher([{ label: 'History', command: `citations ${brandId} history` }])).toBeUndefined();
  });

  it('commands with nothing in common keep their whole text in the option', () => {
    const menu = menuOf(
      viewSwitcher([
        { label: 'Brand', command: `brand ${brandId}` },
        { label: 'AI Pages', command: `aipages ${brandId}` },
      ]),
    );
    expect(menu.action_id).toBe(SWITCH_VIEW_ACTION_ID);
    expect(menu.options.map((o) => switchedCommand(menu.action_id, o.value))).toEqual([
      `brand ${brandId}`,
      `aipages ${brandId}`,
    ]);
  });
});
