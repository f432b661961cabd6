/**
 * Getting around without retyping, through the local Slack, the real service and the API
 * simulator: the View menu on citations and crawler replies (chosen as a user chooses it,
 * the new view read from what reached Slack), Share in channel on a later page and on
 * refreshed ideas sharing what the user saw, and history bars that draw a 4 % dip as one.
 */
import { describe, expect, it } from 'vitest';
import { SEED_BRANDS } from '../../src/dev/simulator/index.js';
import { manualClock } from '../helpers/manual-clock.js';
import {
  buttonValue,
  dataTables,
  type ReadHarness,
  type ReplyBody,
  simJson,
  tableLinks,
  useReadHarness,
  visibleText,
} from './read-commands-harness.js';

const acme = SEED_BRANDS.acme;

interface MenuOption {
  text: { text: string };
  value: string;
}
interface Menu {
  type: string;
  action_id: string;
  options: MenuOption[];
  initial_option?: MenuOption;
}

/** The View menu of a reply (the select in its last actions block). */
function viewMenu(reply: ReplyBody): Menu {
  const menus = reply.blocks
    .filter((b) => b['type'] === 'actions')
    .flatMap((b) => b['elements'] as Menu[])
    .filter((e) => e.action_id.startsWith('vis:switch-view'));
  expect(menus, JSON.stringify(reply.blocks)).toHaveLength(1);
  return menus[0]!;
}

const labels = (menu: Menu) => menu.options.map((o) => o.text.text);

/** Chooses the option whose label starts with `label` in the View menu of the last reply on `responseUrlId`. */
async function choose(
  h: ReadHarness,
  responseUrlId: string,
  reply: ReplyBody,
  label: string,
): Promise<ReplyBody> {
  const menu = viewMenu(reply);
  const option = menu.options.find((o) => o.text.text.startsWith(label));
  if (!option) throw new Error(`no "${label}" in ${labels(menu).join(', ')}`);
  const before = h.slack.responsesFor(responseUrlId).length;
  const res = await h.slack.blockAction(h.appUrl, {
    actionId: menu.action_id,
    responseUrlId,
    selectedOption: option.value,
  });
  expect(res.status).toBe(200);
  const post = await h.slack.waitFor(() => h.slack.responsesFor(responseUrlId)[before], 8000);
  // The local Slack validates blocks as Slack does: a rejected reply is a bug.
  expect(post.error, JSON.stringify(post.errors)).toBeUndefined();
  return post.body as ReplyBody;
}

/** Clicks Share on the last reply on `responseUrlId`; resolves with what was posted for the channel. */
async function share(h: ReadHarness, responseUrlId: string): Promise<ReplyBody> {
  const before = h.slack.responsesFor(responseUrlId).length;
  const res = await h.slack.blockAction(h.appUrl, { actionId: 'vis:share', responseUrlId });
  expect(res.status).toBe(200);
  const post = await h.slack.waitFor(() => h.slack.responsesFor(responseUrlId)[before], 8000);
  expect(post.error, JSON.stringify(post.errors)).toBeUndefined();
  return post.body as ReplyBody;
}

const getCitations = (h: ReadHarness) => h.requestsTo('/get-citations', 'GET').map((r) => r.query);

describe('the View menu on citations replies', () => {
  const h = useReadHarness();

  it('switches from history to sources in place, opening on the most cited domain', async () => {
    const { responseUrlId, reply } = await h.command('citations "Acme Analytics" history --days 14');
    const menu = viewMenu(reply);
    expect(labels(menu)).toEqual([
      'Cited pages',
      'History ✓',
      'Queries',
      'Sources',
      'Change feed',
      'Heatmap',
    ]);
    expect(menu.initial_option?.text.text).toBe('History ✓');

    const heatmap = await simJson<{
      domains: string[];
      cells: Array<{ domain: string; mention_count: number }>;
    }>(h.sim, '/get-citations', { brand_id: acme.id, view: 'heatmap' });
    const mentions = (d: string) =>
      heatmap.cells.filter((c) => c.domain === d).reduce((n, c) => n + c.mention_count, 0);
    const top = [...heatmap.domains].sort((a, b) => mentions(b) - mentions(a))[0]!;
    h.sim.requests.length = 0;

    const sources = await choose(h, responseUrlId, reply, 'Sources');
    expect(sources.replace_original).toBe(true);
    expect(getCitations(h)).toEqual([
      { brand_id: acme.id, view: 'heatmap' },
      { brand_id: acme.id, view: 'sources', domain: top },
    ]);
    const expected = await simJson<{ total_citations: number; pages: Array<{ url: string }> }>(
      h.sim,
      '/get-citations',
      { brand_id: acme.id, view: 'sources', domain: top },
    );
    const text = visibleText(sources);
    expect(text).toContain(`${top} · Acme Analytics`);
    expect(text).toContain('The domain AI answers cite most for *Acme Analytics*');
    expect(text).toContain(`*Citations*\n${expected.total_citations}`);
    expect(tableLinks(sources)).toContain(expected.pages[0]!.url);
    const sourcesMenu = viewMenu(sources);
    expect(sourcesMenu.initial_option?.text.text).toBe(`Sources · ${top} ✓`);
    // The next most cited domains are one choice away.
    expect(labels(sourcesMenu).filter((l) => l.startsWith('Sources · '))).toHaveLength(5);

    // The sources view has no period; from it the feed opens on its default.
    h.sim.requests.length = 0;
    const feed = await choose(h, responseUrlId, sources, 'Change feed');
    expect(getCitations(h)).toEqual([{ brand_id: acme.id, view: 'feed', limit: '500' }]);
    expect(viewMenu(feed).initial_option?.text.text).toBe('Change feed ✓');
  });

  it('carries the period between history and the feed where it fits, and Share shares the view on screen', async () => {
    const { responseUrlId, reply } = await h.command('citations "Acme Analytics" history --days 14');
    h.sim.requests.length = 0;
    const feed = await choose(h, responseUrlId, reply, 'Change feed');
    expect(getCitations(h)).toEqual([{ brand_id: acme.id, view: 'feed', days_back: '14', limit: '500' }]);
    const shareButton = (
      feed.blocks.at(-1)!['elements'] as Array<{ action_id: string; value?: string }>
    ).find((e) => e.action_id === 'vis:share');
    expect(shareButton?.value).toBe(`citations ${acme.id} feed --days-back 14`);

    h.sim.requests.length = 0;
    await choose(h, responseUrlId, feed, 'History');
    expect(getCitations(h)).toEqual([{ brand_id: acme.id, view: 'history', days: '14' }]);

    // 90 days of history is more than the feed's 30: the feed opens on its default.
    const long = await h.command('citations "Acme Analytics" history --days 90');
    h.sim.requests.length = 0;
    await choose(h, long.responseUrlId, long.reply, 'Change feed');
    expect(getCitations(h)).toEqual([{ brand_id: acme.id, view: 'feed', limit: '500' }]);
  });

  it('every citations view carries the menu, preselecting itself, in one actions block with Share', async () => {
    const views: Array<[string, string]> = [
      ['citations "Acme Analytics"', 'Cited pages ✓'],
      ['citations "Acme Analytics" queries', 'Queries ✓'],
      ['citations "Acme Analytics" sources techcrunch.com', 'Sources · techcrunch.com ✓'],
      ['citations "Acme Analytics" feed', 'Change feed ✓'],
      ['citations "Acme Analytics" heatmap', 'Heatmap ✓'],
    ];
    for (const [command, current] of views) {
      const { reply } = await h.command(command);
      expect(viewMenu(reply).initial_option?.text.text, command).toBe(current);
      const last = reply.blocks.at(-1)!;
      expect(last['block_id']).toBe('vis:share');
      const ids = (last['elements'] as Array<{ action_id: string }>).map((e) => e.action_id.split(':')[1]);
      expect(ids).toEqual(['switch-view', 'share']);
    }
  });

  it('Next on the citations list keeps the menu, and Share shares that page', async () => {
    const { reply } = await h.command('citations "Acme Analytics" list --limit 5');
    const next = await h.click(reply, 'vis:citations:page:next');
    expect(viewMenu(next.reply).initial_option?.text.text).toBe('Cited pages ✓');
    h.sim.requests.length = 0;
    const shared = await share(h, next.responseUrlId);
    expect(getCitations(h)).toEqual([{ brand_id: acme.id, view: 'list', limit: '5', offset: '5' }]);
    const body = (r: ReplyBody) => visibleText({ blocks: r.blocks.filter((b) => b['type'] !== 'actions') });
    expect(body(shared)).toContain(body(next.reply));
  });

  it('a shared copy in the channel carries no menu (a switch would replace everybody’s message)', async () => {
    const { responseUrlId } = await h.command('citations "Acme Analytics" heatmap');
    const shared = await share(h, responseUrlId);
    expect(shared.response_type).toBe('in_channel');
    expect(JSON.stringify(shared.blocks)).not.toContain('vis:switch-view');
    expect(visibleText(shared)).toContain('Shared by');
  });
});

describe('the View menu on crawler replies', () => {
  const h = useReadHarness();

  it('switches from the live tab to access for the same range, and on to the overview', async () => {
    const { responseUrlId, reply } = await h.command('crawler "Acme Analytics" live 7d --limit 5');
    expect(labels(viewMenu(reply))).toEqual([
      'Overview',
      'Live: visits ✓',
      'Live: pages visited',
      'Live: sessions',
      'Pages',
      'Pages: by path',
      'Pages: by crawler',
      'Access',
    ]);
    h.sim.requests.length = 0;

    const access = await choose(h, responseUrlId, reply, 'Access');
    expect(access.replace_original).toBe(true);
    expect(h.sim.requests.map((r) => [r.path, r.query])).toEqual([
      ['/crawler/access', { brand_id: acme.id, range_preset: '7d' }],
    ]);
    const text = visibleText(access);
    expect(text).toContain('AI crawler access · Acme Analytics');
    expect(text).not.toContain('AI crawler live');
    expect(viewMenu(access).initial_option?.text.text).toBe('Access ✓');

    h.sim.requests.length = 0;
    const overview = await choose(h, responseUrlId, access, 'Overview');
    expect(h.sim.requests.map((r) => [r.path, r.query])).toEqual([
      ['/crawler/overview', { brand_id: acme.id, range_preset: '7d' }],
    ]);
    expect(visibleText(overview)).toContain('AI crawler visits · Acme Analytics');
    expect(viewMenu(overview).initial_option?.text.text).toBe('Overview ✓');
  });

  it('a later page of a listing keeps the menu, and its Share re-runs that page', async () => {
    const { reply } = await h.command('crawler "Acme Analytics" pages --limit 3');
    const more = await h.click(reply, 'vis:crawler:more');
    expect(viewMenu(more.reply).initial_option?.text.text).toBe('Pages ✓');
    const cursor = String(buttonValue(reply, 'vis:crawler:more')['cursor']);
    h.sim.requests.length = 0;
    const shared = await share(h, more.responseUrlId);
    expect(shared.response_type).toBe('in_channel');
    expect(h.sim.requests.map((r) => [r.path, r.query])).toEqual([
      ['/crawler/pages', { brand_id: acme.id, limit: '3', cursor }],
    ]);
    // The same rows, numbered as the user saw them.
    const rows = (r: ReplyBody) => dataTables(r)[0]?.caption.match(/Rows \d+–\d+/)?.[0];
    expect(rows(shared)).toBe(rows(more.reply));
    expect(rows(shared)).toMatch(/^Rows 4–/);
  });

  it('the Pages tab through another lens, for the same range, in place', async () => {
    const { responseUrlId, reply } = await h.command('crawler "Acme Analytics" pages 7d --status cited');
    h.sim.requests.length = 0;
    const byCrawler = await choose(h, responseUrlId, reply, 'Pages: by crawler');
    // The status filter was for the page list; the lens and the range carry.
    expect(h.sim.requests.map((r) => r.query)).toEqual([
      { brand_id: acme.id, range_preset: '7d', lens: 'bots' },
    ]);
    expect(viewMenu(byCrawler).initial_option?.text.text).toBe('Pages: by crawler ✓');
    expect(visibleText(byCrawler)).toContain('Bot details');
  });
});

describe('Share in channel on crawler page details', () => {
  const h = useReadHarness();

  it('a page drawer opened from a listing can be shared, and the channel gets that page for the same range', async () => {
    const { reply } = await h.command('crawler "Acme Analytics" pages --lens paths 30d --limit 2');
    const value = buttonValue(reply, 'vis:crawler:drawer:0');
    const drawer = await h.click(reply, 'vis:crawler:drawer:0');
    expect(visibleText(drawer.reply)).toContain('Path details · Acme Analytics');
    h.sim.requests.length = 0;

    const shared = await share(h, drawer.responseUrlId);
    expect(shared.response_type).toBe('in_channel');
    expect(h.sim.requests.map((r) => [r.path, r.query])).toEqual([
      [
        '/crawler/path-details',
        { brand_id: acme.id, kind: 'path', entity_id: value['entityId'], range_preset: '30d' },
      ],
    ]);
    const body = (r: ReplyBody) => visibleText({ blocks: r.blocks.filter((b) => b['type'] !== 'actions') });
    expect(body(shared)).toContain(body(drawer.reply));
    expect(visibleText(shared)).toMatch(/Shared by <@U/);
  });

  it('the same details can be typed, a range after the page included', async () => {
    const { reply } = await h.command('crawler "Acme Analytics" pages --limit 1');
    const entityId = String(buttonValue(reply, 'vis:crawler:drawer:0')['entityId']);
    h.sim.requests.length = 0;
    const typed = await h.command(`crawler "Acme Analytics" details page "${entityId}" 7d`);
    expect(h.sim.requests.map((r) => [r.path, r.query])).toEqual([
      ['/crawler/page-details', { brand_id: acme.id, kind: 'page', entity_id: entityId, range_preset: '7d' }],
    ]);
    expect(visibleText(typed.reply)).toContain('Page details · Acme Analytics');
    const wrong = await h.command('crawler "Acme Analytics" details pgae /pricing');
    expect(wrong.reply.text).toContain('Say which details and of what');
  });
});

describe('Share in channel on later pages of ideas', () => {
  const h = useReadHarness();

  it('page 2 shared is page 2, for everyone', async () => {
    const { reply } = await h.command('ideas "Acme Analytics" --limit 3');
    const next = await h.click(reply, 'vis:ideas:page:next');
    const page2 = next.reply;
    expect(page2.replace_original).toBe(true);
    const offset = Number(buttonValue(reply, 'vis:ideas:page:next')['offset']);
    const ideas = await simJson<{ ideas: Array<{ query: string }> }>(h.sim, '/get-content-ideas', {
      brand_id: acme.id,
      status: 'active',
      limit: '50',
    });
    const onPage2 = ideas.ideas.slice(offset, offset + 3).map((i) => i.query);
    for (const q of onPage2) expect(visibleText(page2)).toContain(q);

    const shared = await share(h, next.responseUrlId);
    expect(shared.response_type).toBe('in_channel');
    const text = visibleText(shared);
    for (const q of onPage2) expect(text).toContain(q);
    expect(text).not.toContain(ideas.ideas[0]!.query);
    expect(text).toMatch(/Shared by <@U/);
    expect(h.requestsTo('/get-content-ideas', 'GET').at(-1)?.query).toMatchObject({
      offset: String(offset),
      limit: '3',
    });
  });
});

describe('Share in channel on refreshed ideas', () => {
  const simClock = manualClock(Date.now());
  const h = useReadHarness({
    simulator: { generationMs: 600, clock: simClock },
    refreshTiming: { pollIntervalMs: 25, timeoutMs: 10_000 },
  });

  it('the fresh ideas that replace "generating" can be shared, and the channel gets those ideas', async () => {
    const first = await h.command('ideas "Acme Analytics" refresh');
    expect(JSON.stringify(first.reply.blocks)).not.toContain('vis:share');
    simClock.advance(600);
    const done = await h.slack.waitFor(() => h.slack.responsesFor(first.responseUrlId)[1], 8000);
    const fresh = done.body as ReplyBody;
    expect(fresh.text).toContain('Fresh content ideas are ready');
    expect(JSON.stringify(fresh.blocks)).toContain('"vis:share"');

    const shared = await share(h, first.responseUrlId);
    expect(shared.response_type).toBe('in_channel');
    const top = await simJson<{ ideas: Array<{ query: string }> }>(h.sim, '/get-content-ideas', {
      brand_id: acme.id,
      status: 'active',
      limit: '10',
    });
    for (const idea of top.ideas.slice(0, 3)) {
      expect(visibleText(fresh)).toContain(idea.query);
      expect(visibleText(shared)).toContain(idea.query);
    }
  });
});

describe('history sparklines', () => {
  const h = useReadHarness();

  it('a 4 % dip is drawn as a dip, not a cliff', async () => {
    const days = ['2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21', '2026-11-22'];
    const totals = [24, 24, 24, 23, 23];
    const body = {
      brand: { id: acme.id, name: acme.name },
      brand_time_series: days.map((date, i) => ({
        date,
        total_citations: totals[i],
        brand_mentions: 12,
        unique_sources: 9,
        avg_sentiment: 70,
      })),
      competitor_time_series: {},
      snapshots_available: 5,
      date_range: { start: days[0], end: days.at(-1) },
    };
    h.sim.control.injectFault({ kind: 'status', status: 200, path: '/get-citations', body, count: 1 });
    const { reply } = await h.command('citations "Acme Analytics" history');
    const text = visibleText(reply);
    const line = /Citations {2}`([^`]+)` {2}(.*)/.exec(text);
    expect(line, text).not.toBeNull();
    expect(line![2]).toContain('24 → *23* (−4 %)');
    // Five nearly full bars: nothing falls to the baseline.
    expect(line![1]).toMatch(/^[▇█]{5}$/);
    expect(text).toContain('bars measured from zero');
  });
});
