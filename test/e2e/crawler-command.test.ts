/**
 * `/visibility crawler` and `/visibility aipages` through the local Slack, the real
 * service and the API simulator: the query or body that reached the simulator, its data in
 * the reply, cursor paging with More, drawers, and the editor-only actions refused for a
 * viewer brand before any request.
 */

import { describe, expect, it } from 'vitest';
import { SEED_BRANDS } from '../../src/dev/simulator/index.js';
import { dayText } from '../../src/figures/day-text.js';
import {
  buttons,
  buttonValue,
  cellShown,
  dataTables,
  simJson,
  useReadHarness,
  visibleText,
} from './read-commands-harness.js';

const acme = SEED_BRANDS.acme;
const h = useReadHarness();

const simGet = <T>(path: string, query: Record<string, string>): Promise<T> =>
  simJson<T>(h.sim, path, { brand_id: acme.id, ...query });

const apiCalls = () => h.sim.requests.filter((r) => r.path !== '/get-brands');

describe('crawler overview', () => {
  it('asks for the range and comparison and shows hero figures, trend, crawlers, pages and visits', async () => {
    const { reply } = await h.command('crawler "Acme Analytics" 7d --compare');
    expect(apiCalls().map((r) => [r.method, r.path, r.query])).toEqual([
      ['GET', '/crawler/overview', { brand_id: acme.id, range_preset: '7d', compare_to: 'previous_period' }],
    ]);
    const o = await simGet<{
      hero: { total_visits: number; top_crawler: string; unique_pages: number };
      chart: { distribution: Array<{ crawler: string }>; series: unknown[] };
      top_pages: Array<{ url: string }>;
      recent_preview: Array<{ url: string }>;
      range: { start: string; end: string };
    }>('/crawler/overview', { range_preset: '7d', compare_to: 'previous_period' });
    const text = visibleText(reply);
    const words = (date: string) => dayText(date);
    expect(text).toContain(`*AI crawler visits*\n*${o.hero.total_visits.toLocaleString('en-US')}*`);
    expect(text).toContain(`*Top crawler*\n${o.hero.top_crawler}`);
    expect(text).toMatch(/\*By day\* {2}`[▁▂▃▄▅▆▇█]{7}`/);
    expect(text).toContain('*By bot type*  Training');
    expect(text).toContain(o.chart.distribution[0]!.crawler);
    expect(text).toContain(o.top_pages[0]!.url);
    expect(text).toContain('*Latest visits*');
    // The period in dates, the one it is compared with, and why alerts may say otherwise.
    expect(text).toContain(`Last 7 days: ${words(o.range.start)} – ${words(o.range.end)} (today so far)`);
    const day = 86_400_000;
    const daysBefore = (n: number) =>
      new Date(Date.parse(`${o.range.start}T00:00:00Z`) - n * day).toISOString().slice(0, 10);
    expect(text).toContain(`compared with ${words(daysBefore(7))} – ${words(daysBefore(1))}`);
    expect(text).toContain('alerts and the digest count whole days up to yesterday');
  });

  it('sends a custom range as start and end dates', async () => {
    await h.command('crawler Acme Analytics 2025-01-01..2025-01-31');
    expect(apiCalls()[0]?.query).toEqual({
      brand_id: acme.id,
      range_preset: 'custom',
      start_date: '2025-01-01',
      end_date: '2025-01-31',
    });
  });

  it('answers a bad range with usage and sends nothing', async () => {
    for (const bad of ['14d', '2025-02-30..2025-03-01', '2025-03-01..2025-02-01', '2025-01-01..']) {
      const { reply } = await h.command(`crawler "Acme Analytics" ${bad}`);
      expect(visibleText(reply)).toContain(
        'Usage: `/visibility crawler <brand> [24h|7d|30d|90d|YYYY-MM-DD..YYYY-MM-DD]',
      );
    }
    expect(h.sim.requests).toHaveLength(0);
  });
});

describe('crawler live and pages', () => {
  it('passes the live filters and pages on with More (cursor), in the same message', async () => {
    const first = await h.command(
      'crawler "Acme Analytics" live 7d --view activity --intent search --platform openai --status 200 --search pricing --limit 2',
    );
    const [live] = apiCalls();
    expect([live?.method, live?.path, live?.query]).toEqual([
      'GET',
      '/crawler/live',
      {
        brand_id: acme.id,
        range_preset: '7d',
        limit: '2',
        intent: 'search',
        platform: 'openai',
        search: 'pricing',
        view: 'activity',
        http_status: '200',
      },
    ]);
    const more = buttonValue(first.reply, 'vis:crawler:more');
    expect(more).toMatchObject({ brandId: acme.id, tab: 'live', limit: 2, offset: 2, intent: 'search' });
    expect(typeof more['cursor']).toBe('string');
    const expected = await simGet<{ items: Array<{ url: string }>; meta: { total: number } }>(
      '/crawler/live',
      {
        range_preset: '7d',
        view: 'activity',
        intent: 'search',
        platform: 'openai',
        search: 'pricing',
        http_status: '200',
        limit: '2',
        cursor: String(more['cursor']),
      },
    );
    const next = await h.click(first.reply, 'vis:crawler:more');
    expect(next.reply.replace_original).toBe(true);
    expect(next.reply.text).toContain(`Rows 3–4 of ${expected.meta.total}`);
    // The rows are Slack's table, each page linked by its path, the caption saying which rows.
    const [table] = dataTables(next.reply);
    expect(table?.caption).toBe(`Live crawler visits: Rows 3–4 of ${expected.meta.total}`);
    expect(table?.rows.slice(1).map((row) => cellShown(row[0]!))).toEqual(
      expected.items.map((i) => `<${i.url}|${(i as { path?: string }).path}>`),
    );
    const lives = h.requestsTo('/crawler/live');
    expect(lives[2]?.query).toMatchObject({
      cursor: more['cursor'],
      limit: '2',
      http_status: '200',
      range_preset: '7d',
    });
  });

  it('heads Live in words: the view named, the range as dates in words, the filters in the vocabulary', async () => {
    const today = new Date(h.deps.clock.now()).toISOString().slice(0, 10);
    const words = (date: string) => dayText(date);
    const live = await h.command('crawler "Acme Analytics" live --limit 3');
    const payload = await simGet<{
      range: { start: string; end: string };
      items: Array<{ path: string; url: string }>;
    }>('/crawler/live', { limit: '3' });
    const text = visibleText(live.reply);
    expect(text).toContain('Live crawler visits · Acme Analytics');
    expect(live.reply.text).toMatch(/^Live crawler visits for Acme Analytics: Rows 1–3/);
    // One day is said once, as "Today" when it is the current day (was "2026-11-24 – 2026-11-24").
    const { start, end } = payload.range;
    expect(start).toBe(end);
    expect(text).toContain(start === today ? `Today (${words(start)})` : words(start));
    expect(text).not.toContain(`${start} – ${end}`);
    // Each row names the path once, as a link to the URL (not the path, then the URL in brackets).
    const row = payload.items[0]!;
    expect(cellShown(dataTables(live.reply)[0]!.rows[1]![0]!)).toBe(`<${row.url}|${row.path}>`);
    expect(text).not.toContain(row.url);

    const sessions = await h.command(
      'crawler "Acme Analytics" live 7d --view sessions --intent search --platform openai --status 404 --limit 2',
    );
    const seven = await simGet<{ range: { start: string; end: string } }>('/crawler/live', {
      range_preset: '7d',
      view: 'sessions',
      limit: '2',
    });
    const head = visibleText(sessions.reply);
    expect(head).toContain('Live crawler sessions · Acme Analytics');
    expect(head).toContain(
      `Last 7 days: ${words(seven.range.start)} – ${words(seven.range.end)}  ·  HTTP status 404 Not found, purpose Search, AI company OpenAI`,
    );
    expect(head).not.toMatch(/· sessions ·|intent search|platform openai/);

    const bots = await h.command('crawler "Acme Analytics" pages --lens bots --status cited --limit 2');
    expect(visibleText(bots.reply)).toContain('AI crawler pages by crawler · Acme Analytics');
  });

  it('checks the flag vocabularies before sending', async () => {
    const a = await h.command('crawler "Acme Analytics" live --view timeline');
    expect(a.reply.text).toContain('`--view` takes one of activity, pages, sessions');
    const b = await h.command('crawler "Acme Analytics" pages --status lukewarm');
    expect(b.reply.text).toContain('`--status` takes one of all, converting, cited, crawled, healthy, cold');
    const c = await h.command('crawler "Acme Analytics" live --status 4xx');
    expect(c.reply.text).toContain('HTTP status such as 404');
    const d = await h.command('crawler "Acme Analytics" pages --limit 101');
    expect(d.reply.text).toContain('`--limit` takes a whole number from 1 to 100');
    expect(h.sim.requests).toHaveLength(0);
  });

  it('opens the bot, page and path drawers from a Pages listing', async () => {
    const bots = await h.command('crawler "Acme Analytics" pages --lens bots --intent training --limit 3');
    expect(apiCalls()[0]?.query).toEqual({ brand_id: acme.id, lens: 'bots', intent: 'training', limit: '3' });
    const botValue = buttonValue(bots.reply, 'vis:crawler:drawer:0');
    expect(botValue).toMatchObject({ brandId: acme.id, kind: 'bot' });
    const bot = await h.click(bots.reply, 'vis:crawler:drawer:0');
    expect(bot.reply.replace_original).toBe(false);
    const botCall = h.requestsTo('/crawler/bot-details')[0];
    expect(botCall?.query).toEqual({ brand_id: acme.id, kind: 'bot', entity_id: botValue['entityId'] });
    expect(visibleText(bot.reply)).toContain('Bot details');
    // The verdict as a sentence and the pipeline as a progression, not as fields.
    expect(visibleText(bot.reply)).toContain(':large_green_circle: *Crawling normally.*');
    expect(visibleText(bot.reply)).toContain(
      '✓ allowed by robots.txt → ✓ reachable → ✓ crawling → ✗ answering',
    );

    const pages = await h.command('crawler "Acme Analytics" pages --status cited --limit 2');
    expect(h.requestsTo('/crawler/pages').at(-1)?.query).toEqual({
      brand_id: acme.id,
      status: 'cited',
      limit: '2',
    });
    const pageValue = buttonValue(pages.reply, 'vis:crawler:drawer:0');
    const page = await h.click(pages.reply, 'vis:crawler:drawer:0');
    expect(h.requestsTo('/crawler/page-details')[0]?.query).toEqual({
      brand_id: acme.id,
      kind: 'page',
      entity_id: pageValue['entityId'],
    });
    expect(visibleText(page.reply)).toContain('Page details');

    const paths = await h.command('crawler "Acme Analytics" pages --lens paths 30d');
    const path = await h.click(paths.reply, 'vis:crawler:drawer:0');
    expect(h.requestsTo('/crawler/path-details')[0]?.query).toMatchObject({
      kind: 'path',
      range_preset: '30d',
    });
    expect(visibleText(path.reply)).toContain('Path details');
  });

  it('renders the access tab with a Preview fix button per finding, the ids kept out of the text', async () => {
    const { reply } = await h.command('crawler "Acme Analytics" access');
    expect(apiCalls()[0]?.path).toBe('/crawler/access');
    const access = await simGet<{ findings: Array<{ id: string; title: string; fix_available: boolean }> }>(
      '/crawler/access',
      {},
    );
    const text = visibleText(reply);
    for (const f of access.findings) {
      expect(text).toContain(f.title);
      expect(text).not.toContain(f.id);
    }
    expect(
      buttons(reply)
        .filter((b) => b.action_id.startsWith('vis:crawler:preview-fix:'))
        .map((b) => JSON.parse(b.value ?? '{}').findingId),
    ).toEqual(access.findings.filter((f) => f.fix_available !== false).map((f) => f.id));
    expect(text).toContain('*Bot access*');
  });
});

describe('crawler actions', () => {
  it('ping: POSTs for an owner brand, relays the answer and audits it', async () => {
    const { reply } = await h.command('crawler "Acme Analytics" ping');
    expect(apiCalls().map((r) => [r.method, r.path, r.body])).toEqual([
      ['POST', '/crawler/verification-ping', { brand_id: acme.id }],
    ]);
    expect(visibleText(reply)).toContain('*Status*: sent');
    const [entry] = await h.deps.auditLog.recent(1);
    expect(entry).toMatchObject({
      action: 'send the crawler verification ping',
      brandId: acme.id,
      result: 'ok',
    });
  });

  it('ping and submit: a viewer brand is refused, saying why, before any request', async () => {
    const ping = await h.command('crawler "Northwind Outfitters" ping');
    expect(ping.reply.text).toContain('*viewer* role');
    expect(ping.reply.text).toContain('cannot send the crawler verification ping');
    const submit = await h.command(
      'crawler "Northwind Outfitters" submit https://www.northwindoutfitters.com/',
    );
    expect(submit.reply.text).toContain('cannot submit URLs to AI search');
    expect(h.requestsTo('/crawler/verification-ping')).toHaveLength(0);
    expect(h.requestsTo('/crawler/submit-to-search')).toHaveLength(0);
    const audit = await h.deps.auditLog.recent(2);
    expect(audit.map((e) => e.result)).toEqual(['refused: viewer_role', 'refused: viewer_role']);
  });

  it('submit: validates absolute URLs, then POSTs them comma-separated', async () => {
    const bad = await h.command('crawler "Acme Analytics" submit www.acmeanalytics.com/pricing');
    expect(bad.reply.text).toContain('is not an absolute URL');
    const none = await h.command('crawler "Acme Analytics" submit');
    expect(none.reply.text).toContain('Name the URLs to submit');
    expect(h.sim.requests).toHaveLength(0);

    const { reply } = await h.command(
      'crawler "Acme Analytics" submit https://www.acmeanalytics.com/pricing <https://www.acmeanalytics.com/blog|blog>',
    );
    expect(h.requestsTo('/crawler/submit-to-search').map((r) => r.body)).toEqual([
      { brand_id: acme.id, urls: 'https://www.acmeanalytics.com/pricing,https://www.acmeanalytics.com/blog' },
    ]);
    expect(visibleText(reply)).toContain('Submitted 2 URLs');
    expect(visibleText(reply)).toContain('*Status*: pending');
    expect((await h.deps.auditLog.recent(1))[0]).toMatchObject({
      action: 'submit URLs to AI search',
      result: 'ok',
      detail: { urls: ['https://www.acmeanalytics.com/pricing', 'https://www.acmeanalytics.com/blog'] },
    });
  });

  it('submit-status and preview-fix relay the service’s answer', async () => {
    const status = await h.command('crawler "Acme Analytics" submit-status');
    expect(apiCalls().map((r) => [r.method, r.path])).toEqual([['GET', '/crawler/submit-to-search/status']]);
    expect(visibleText(status.reply)).toContain('*Summary*');

    const access = await simGet<{ findings: Array<{ id: string; title: string }> }>('/crawler/access', {});
    const id = access.findings[0]!.id;
    const fix = await h.command(`crawler "Northwind Outfitters" preview-fix ${id}`);
    // Attempted for a viewer brand too; the service answers (a 404 for another brand's finding).
    expect(h.requestsTo('/crawler/access/preview-fix').map((r) => r.body)).toEqual([
      { brand_id: SEED_BRANDS.northwind.id, finding_id: id },
    ]);
    expect(fix.reply.text).toMatch(/no access finding|Preview/);
    const ok = await h.command(`crawler "Acme Analytics" preview-fix ${id}`);
    expect(visibleText(ok.reply)).toContain('Nothing was changed');
    // The change first, as a diff; "not applied" is said once, in the lead.
    expect(visibleText(ok.reply)).toMatch(/\*Preview\*: target robots\.txt\n◦ \*Diff\*:\n```[-+] /);
    expect(visibleText(ok.reply)).not.toContain('*Applied*');
    const missing = await h.command('crawler "Acme Analytics" preview-fix');
    expect(missing.reply.text).toContain('Name the finding to preview');
  });
});

describe('aipages', () => {
  it('shows status, domain, platform, human feature names, crawlers and a usage bar', async () => {
    h.sim.control.setAiPagesUsage(acme.id, {
      percentageUsed: 42,
      requestsThisMonth: 42_000,
      requestsLimit: 100_000,
    });
    const { reply } = await h.command('aipages Acme Analytics');
    expect(apiCalls().map((r) => [r.method, r.path, r.query])).toEqual([
      ['GET', '/ai-pages', { brand_id: acme.id }],
    ]);
    const text = visibleText(reply);
    expect(text).toContain(':large_green_circle: Enabled');
    expect(text).toContain('*Domain*\nacmeanalytics.com');
    expect(text).toContain('*Platform*\nCloudflare');
    expect(text).toContain('Structured data injection, Key facts extraction, Automated FAQ generation');
    expect(text).toContain('GPTBot');
    expect(text).toContain('▰▰▰▰▱▱▱▱▱▱ 42 %');
    expect(text).toContain('42,000 of 100,000 AI Pages requests this billing period');
    expect(JSON.stringify(reply.blocks)).toContain('resets <!date^');
    // The notification (the plain-text fallback) names the reset day in words too, not as a timestamp.
    expect(reply.text).toMatch(
      /AI Pages usage 42 % of the monthly limit .* resets <!date\^\d+\^\{date_short\}\|[A-Z][a-z]{2} \d{1,2}, \d{4}>\.$/,
    );
    expect(reply.text).not.toMatch(/\d{4}-\d\d-\d\dT/);
  });

  it('explains how to set up AI Pages when it is not set up', async () => {
    const { reply } = await h.command('aipages "Globex Corporation"');
    expect(visibleText(reply)).toContain('Hosted AI Pages is not set up for Globex Corporation');
    expect(visibleText(reply)).toContain('To set it up');
  });

  it('says the plan does not include AI Pages on a 403', async () => {
    const { reply } = await h.command('aipages Initech');
    expect(h.requestsTo('/ai-pages').at(-1)?.status).toBe(403);
    expect(reply.text).toContain('Your plan does not include AI Pages');
  });
});

describe('share', () => {
  it('puts a Share button on read replies that names the brand by id', async () => {
    const { reply } = await h.command('crawler "Acme Analytics" live --limit 3 7d');
    expect(buttons(reply).find((b) => b.action_id === 'vis:share')?.value).toBe(
      `crawler ${acme.id} live 7d --limit 3`,
    );
  });
});
