/**
 * The crawler tabs read whatever shape the service answers in (docs/api.md §10: the Live, Pages,
 * Access and drawer payloads are undocumented), through the local Slack, the real service
 * and the API simulator answering with the payload under test: a listing's rows under any
 * key and nesting, each with its details button and never under "nothing to show"; records
 * with fields nobody told the bot about, in words rather than `key value` pairs; long
 * descriptions whole or cut at a word; every row of a long page reachable with More.
 */
import { describe, expect, it } from 'vitest';
import { SEED_BRANDS } from '../../src/dev/simulator/index.js';
import {
  buttons,
  dataTables,
  type ReplyBody,
  simJson,
  tableRow,
  useReadHarness,
  visibleText,
} from './read-commands-harness.js';

const acme = SEED_BRANDS.acme;
const h = useReadHarness();
const site = 'https://www.acmeanalytics.com';

/** What a reader sees, with Slack's own tokens (links, dates, emoji) taken out: they are markup. */
const readable = (reply: ReplyBody) =>
  visibleText(reply)
    .replace(/<[^>\n]*>/g, ' ')
    .replace(/:[a-z0-9_+-]+:/g, ' ');
const drawerButtons = (reply: ReplyBody) =>
  buttons(reply).filter((b) => b.action_id.startsWith('vis:crawler:drawer:'));
/** The service answers the next request to `path` with `body`. */
const answer = (path: string, body: unknown) =>
  h.sim.control.injectFault({ kind: 'status', status: 200, path, body });

const visit = (n: number, extra: Record<string, unknown> = {}) => ({
  id: `vis_${n}_0_1`,
  crawler: `Bot-${String(n).padStart(2, '0')}`,
  url: `${site}/p/${n}`,
  path: `/p/${n}`,
  platform: 'openai',
  visited_at: '2026-11-24T06:00:00Z',
  status_code: 200,
  ...extra,
});
const rowsNamed = (text: string) => [...text.matchAll(/Bot-(\d\d)/g)].map((m) => Number(m[1]));

describe('a listing finds its rows whatever the service calls them', () => {
  const three = [visit(1), visit(2), visit(3)];
  const shapes: Array<[string, Record<string, unknown>, string | undefined]> = [
    ['rows with pagination', { rows: three, pagination: { total: 3, next_cursor: null } }, undefined],
    [
      'data.results with meta inside',
      { data: { results: three, meta: { total: 9, next_cursor: 'c2' } } },
      'c2',
    ],
    ['an unknown key with paging beside it', { visits: three, total: 3, next_cursor: null }, undefined],
    [
      'deeper, beside a summary',
      { summary: { total_visits: 3, crawl_budget_left: 1200 }, result: { page: { entries: three } } },
      undefined,
    ],
  ];
  for (const [name, payload, next] of shapes) {
    it(name, async () => {
      answer('/crawler/live', { brand_id: acme.id, ...payload });
      const { reply } = await h.command('crawler "Acme Analytics" live');
      const text = readable(reply);
      expect(text).not.toMatch(/nothing/i);
      // Each row once (not again in a dump of the payload), each with its own button.
      expect(rowsNamed(text)).toEqual([1, 2, 3]);
      expect(drawerButtons(reply).map((b) => JSON.parse(b.value ?? '{}').entityId)).toEqual(
        three.map((v) => v.url),
      );
      expect(reply.text).toMatch(/Rows 1–3/);
      const more = buttons(reply).find((b) => b.action_id === 'vis:crawler:more');
      expect(more === undefined ? undefined : JSON.parse(more.value ?? '{}').cursor).toBe(next);
    });
  }

  it('says there is nothing only when the list is empty', async () => {
    answer('/crawler/pages', { brand_id: acme.id, results: [], pagination: { total: 0, next_cursor: null } });
    const { reply } = await h.command('crawler "Acme Analytics" pages');
    expect(readable(reply)).toContain('Nothing to show in this range.');
    expect(drawerButtons(reply)).toEqual([]);
  });
});

describe('records with fields nobody documented', () => {
  it('read as phrases: counts first, marks for yes and no, numbers grouped, no codes', async () => {
    answer('/crawler/pages', {
      lens: 'bots',
      items: [
        {
          crawler_id: 'gptbot',
          name: 'GPTBot',
          platform: 'openai',
          bot_type: 'training',
          fetch_count: 12345,
          pages_crawled: 1,
          robots_allowed: true,
          js_rendering: false,
          first_seen_at: '2026-10-02',
          render_mode: 'server_side',
        },
      ],
      meta: { total: 1, next_cursor: null },
      shiny_new_block: { crawl_budget_remaining: 98765, cache_hit_pct: 80 },
    });
    const { reply } = await h.command('crawler "Acme Analytics" pages --lens bots');
    const text = readable(reply);
    // The record is a row of Slack's table: each field under its name in words.
    expect(tableRow(reply, 1)).toMatchObject({
      Name: 'GPTBot',
      'AI company': 'OpenAI',
      'Bot type': 'Training bot',
      'Fetch count': '12,345',
      'Pages crawled': '1',
      'Allowed by robots.txt': '✓',
      'Js rendering': '✗',
      'First seen at': 'Oct 2, 2026',
      'Render mode': 'Server side',
    });
    const cells = dataTables(reply)[0]!.rows[1]!;
    expect(cells.find((c) => c.text === '12,345')).toMatchObject({ type: 'raw_number', value: 12345 });
    expect(text).toContain('crawl budget remaining 98,765');
    expect(text).toContain('cache hit 80 %');
    expect(text).not.toMatch(/\b(yes|no|true|false|null)\b/);
    expect(text).not.toMatch(/\b[a-z]+_[a-z_]+\b/);
    expect(text).not.toMatch(/\d{5}/);
    expect(drawerButtons(reply).map((b) => JSON.parse(b.value ?? '{}'))).toEqual([
      expect.objectContaining({ kind: 'bot', entityId: 'GPTBot' }),
    ]);
  });
});

describe('long descriptions', () => {
  const words = 'crawlers fetch every page your robots file allows and some they should not'.split(' ');
  const long = Array.from({ length: 260 }, (_, i) => words[i % words.length]).join(' ');

  it('are shown whole when they fit and never cut inside a word', async () => {
    answer('/crawler/access', {
      findings: [
        {
          id: 'fnd_abcdef123456',
          severity: 'high',
          title: 'A finding with a long story',
          description: long,
          recommendation: 'Allow the crawlers you want to be cited by.',
          fix_available: true,
        },
        { id: 'fnd_abcdef654321', severity: 'low', title: 'Short', description: 'Short text.' },
      ],
      bot_access: [],
    });
    const { reply } = await h.command('crawler "Acme Analytics" access');
    const text = readable(reply);
    const known = new Set([...long.split(' '), ...words]);
    for (const [, cut] of text.matchAll(/([A-Za-z]+)…/g)) expect(known, `cut word “${cut}”`).toContain(cut);
    expect(text).toContain(
      ':red_circle: High priority: *A finding with a long story*'.replace(/:[a-z_]+:/, ' '),
    );
    expect(text).toContain('→ Allow the crawlers you want to be cited by.');
    // The button names the finding; its label is cut at a word too.
    const fix = buttons(reply).find((b) => b.action_id.startsWith('vis:crawler:preview-fix:'));
    expect(fix?.text.text).toBe('Preview fix: A finding with a long story');
  });
});

describe('every row of a page is reachable', () => {
  const note =
    'a long note about this visit that makes its row too wide for many of them to share one message';
  const page1 = Array.from({ length: 25 }, (_, i) => visit(i + 1, { note, response_ms: 200 + i }));
  const page2 = Array.from({ length: 5 }, (_, i) => visit(i + 26));

  it('More shows the rest of a long page before it asks the service for the next one', async () => {
    answer('/crawler/live', { items: page1, meta: { total: 30, limit: 25, next_cursor: 'page-2' } });
    const first = await h.command('crawler "Acme Analytics" live');
    const seen = [rowsNamed(readable(first.reply))];
    expect(seen[0]!.length).toBeLessThan(25);
    expect(first.reply.text).toContain(`Rows 1–${seen[0]!.length} of 30`);
    expect(readable(first.reply)).not.toMatch(/did not fit|--limit/);

    // The rest of page 1, a message at a time, comes from page 1 again (no cursor).
    const replies = [first.reply];
    while (seen.flat().length < 25 && replies.length < 5) {
      answer('/crawler/live', { items: page1, meta: { total: 30, limit: 25, next_cursor: 'page-2' } });
      replies.push((await h.click(replies.at(-1)!, 'vis:crawler:more')).reply);
      seen.push(rowsNamed(readable(replies.at(-1)!)));
    }
    answer('/crawler/live', { items: page2, meta: { total: 30, limit: 25, next_cursor: null } });
    const last = (await h.click(replies.at(-1)!, 'vis:crawler:more')).reply;
    replies.push(last);
    seen.push(rowsNamed(readable(last)));

    expect(seen.flat()).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(last.text).toContain('Rows 26–30 of 30');
    expect(buttons(last).find((b) => b.action_id === 'vis:crawler:more')).toBeUndefined();
    // Only once page 1 is shown whole is the service asked for its next page.
    const cursors = h.requestsTo('/crawler/live').map((r) => r.query['cursor']);
    expect(cursors.at(-1)).toBe('page-2');
    expect(cursors.slice(0, -1).every((c) => c === undefined)).toBe(true);
    // Every row on every message has its button, numbered by its place in the service's page.
    for (const [i, reply] of replies.entries()) expect(drawerButtons(reply)).toHaveLength(seen[i]!.length);
  });

  it('the simulator’s own visits come in order, none left out, none twice', async () => {
    const expected = await simJson<{ items: Array<{ url: string; visited_at: string }> }>(
      h.sim,
      '/crawler/live',
      {
        brand_id: acme.id,
        limit: '50',
      },
    );
    let reply = (await h.command('crawler "Acme Analytics" live')).reply;
    const urls: string[] = [];
    for (let clicks = 0; urls.length < 50 && clicks < 6; clicks += 1) {
      urls.push(...drawerButtons(reply).map((b) => String(JSON.parse(b.value ?? '{}').entityId)));
      reply = (await h.click(reply, 'vis:crawler:more')).reply;
    }
    expect(urls.slice(0, 50)).toEqual(expected.items.map((v) => v.url));
  });
});

describe('the overview’s figures', () => {
  type Overview = {
    hero: { total_visits: number };
    chart: {
      distribution: Array<{ crawler: string; count: number }>;
      bot_type_summary: Record<string, number>;
    };
    breakdown: { search_bot_visits: number };
  };
  const fmt = (n: number) => n.toLocaleString('en-US');

  it('one value per name; when the service’s parts disagree, it says which is which', async () => {
    const o = await simJson<Overview>(h.sim, '/crawler/overview', { brand_id: acme.id, range_preset: '7d' });
    const split = o.chart.bot_type_summary;
    expect(Object.values(split).reduce((a, b) => a + b, 0)).toBe(o.hero.total_visits);
    const plain = readable((await h.command('crawler "Acme Analytics" 7d')).reply);
    expect(plain).toContain(`*Search-crawler visits*\n${fmt(o.breakdown.search_bot_visits)}`);
    // The simulator's bot types classify Amazonbot apart from its search crawlers, as the service may.
    expect(split['search']).not.toBe(o.breakdown.search_bot_visits);
    expect(plain).toContain(
      `its Search part (${fmt(split['search']!)}) is not the search-crawler visits figure (${fmt(o.breakdown.search_bot_visits)})`,
    );
    expect(plain).not.toContain('add up to');

    const skewed = structuredClone(o);
    skewed.chart.distribution[0]!.count += 500;
    skewed.chart.bot_type_summary['other'] = (skewed.chart.bot_type_summary['other'] ?? 0) + 40;
    answer('/crawler/overview', skewed);
    const text = readable((await h.command('crawler "Acme Analytics" 7d')).reply);
    expect(text).toContain(`*AI crawler visits*\n*${fmt(o.hero.total_visits)}*`);
    expect(text).toContain(
      `its parts add up to ${fmt(o.hero.total_visits + 40)}, not the ${fmt(o.hero.total_visits)}`,
    );
    expect(text).toContain(
      `The crawlers add up to ${fmt(o.hero.total_visits + 500)}, not the ${fmt(o.hero.total_visits)}`,
    );
  });
});
