/**
 * `/visibility citations` in its six views, through the local Slack, the real service and
 * the API simulator: the query that reached the simulator, the simulator's data in the
 * reply, paging in place, and usage errors that cost no request.
 */
import { describe, expect, it } from 'vitest';
import { SEED_BRANDS } from '../../src/dev/simulator/index.js';
import { dayText } from '../../src/figures/day-text.js';
import { countFigure } from '../../src/figures/glossary.js';
import { countText, percentText } from '../../src/figures/number-text.js';
import { modelName } from '../../src/messages/vocabulary.js';
import {
  buttons,
  buttonValue,
  dataTables,
  simJson,
  tableLinks,
  useReadHarness,
  visibleText,
} from './read-commands-harness.js';

const acme = SEED_BRANDS.acme;
const h = useReadHarness();

/** The simulator's answer, read directly (not through the bot). */
const simCitations = <T>(query: Record<string, string>): Promise<T> =>
  simJson<T>(h.sim, '/get-citations', { brand_id: acme.id, ...query });

const citationsQueries = () => h.requestsTo('/get-citations', 'GET').map((r) => r.query);

interface Citation {
  url: string;
  page_title: string | null;
  prompt: { text: string };
  metrics: { appearances: number; sentiment: string; visibility_score: number };
  seo: { domain_rating: number };
  search_model: string;
  date: string;
}

describe('citations list', () => {
  it('asks for the list view and shows URL, title, prompt, citations, sentiment, scores, model and date', async () => {
    const { reply } = await h.command('citations "Acme Analytics"');
    expect(citationsQueries()).toEqual([{ brand_id: acme.id, view: 'list', limit: '20', offset: '0' }]);
    const expected = await simCitations<{ citations: Citation[]; pagination: { total: number } }>({
      view: 'list',
      limit: '20',
    });
    const text = visibleText(reply);
    for (const c of expected.citations.slice(0, 8)) {
      expect(text).toContain(c.url);
      if (c.page_title) expect(text).toContain(c.page_title);
      expect(text).toContain(`Prompt: “${c.prompt.text}”`);
      // How often the page is cited: its citations, by the glossary's name.
      expect(text).toContain(countFigure('citations', c.metrics.appearances));
      expect(text).toContain(c.metrics.sentiment);
      expect(text).toContain(`visibility ${c.metrics.visibility_score}`);
      expect(text).toContain(`domain rating ${c.seo.domain_rating}`);
      // Models and prompt types in words: "Google AI Overviews", "(Best for)".
      expect(text).toContain(modelName(c.search_model));
      if (c.search_model.includes('-')) expect(text).not.toContain(c.search_model);
      expect(text).toContain(dayText(c.date));
    }
    expect(text).not.toMatch(/\(\w+_\w+\)|\bDR \d|appearance/);
    // The list counts pages, each once: the glossary's cited pages.
    expect(text).toContain(`of ${countFigure('citedPages', expected.pagination.total)}`);
    expect(reply.text).toContain(`of ${expected.pagination.total}`);
  });

  it('passes domain, prompt, tags and limit', async () => {
    const tag = '0b8e2a4c-1d3f-4a5b-8c7d-9e0f1a2b3c4d';
    await h.command(
      `citations "Acme Analytics" list --domain techcrunch --prompt "product analytics" --tags ${tag} --limit 5`,
    );
    expect(citationsQueries()).toEqual([
      {
        brand_id: acme.id,
        view: 'list',
        limit: '5',
        offset: '0',
        domain: 'techcrunch',
        prompt_text: 'product analytics',
        tag_ids: tag,
      },
    ]);
  });

  it('refuses bad tags and limits before any request', async () => {
    const tags = await h.command('citations "Acme Analytics" --tags news,blog');
    expect(tags.reply.text).toContain('`--tags` takes tag ids (UUIDs)');
    const limit = await h.command('citations "Acme Analytics" --limit 501');
    expect(limit.reply.text).toContain('`--limit` takes a whole number from 1 to 500');
    const typo = await h.command('citations "Acme Analytics" --domian techcrunch.com');
    expect(typo.reply.text).toContain('Unknown flag `--domian`');
    expect(h.sim.requests).toHaveLength(0);
  });

  it('pages with Next then Previous keeping the filters, in the same message', async () => {
    const first = await h.command('citations "Acme Analytics" --domain www --limit 5');
    expect(buttonValue(first.reply, 'vis:citations:page:next')).toEqual({
      brandId: acme.id,
      limit: 5,
      domain: 'www',
      offset: 5,
    });
    const next = await h.click(first.reply, 'vis:citations:page:next');
    expect(next.reply.replace_original).toBe(true);
    const page2 = await simCitations<{ citations: Citation[] }>({
      view: 'list',
      domain: 'www',
      limit: '5',
      offset: '5',
    });
    expect(visibleText(next.reply)).toContain(page2.citations[0]!.url);
    const prev = await h.click(next.reply, 'vis:citations:page:prev');
    expect(prev.reply.replace_original).toBe(true);
    expect(prev.reply.text).toContain('1–5 of');
    const listQueries = citationsQueries().filter((q) => q['limit'] === '5');
    expect(listQueries.map((q) => [q['offset'], q['domain']])).toEqual([
      ['0', 'www'],
      ['5', 'www'],
      ['5', 'www'],
      ['0', 'www'],
    ]);
  });
});

describe('citations history', () => {
  it('asks for view=history with days and shows totals with sparklines and competitor series', async () => {
    const { reply } = await h.command('citations "Acme Analytics" history --days 14');
    expect(citationsQueries()).toEqual([{ brand_id: acme.id, view: 'history', days: '14' }]);
    const expected = await simCitations<{
      brand_time_series: Array<{ total_citations: number; brand_mentions: number }>;
      competitor_time_series: Record<string, unknown[]>;
    }>({ view: 'history', days: '14' });
    const text = visibleText(reply);
    const latest = expected.brand_time_series.at(-1)!;
    // The glossary's names: citations are times cited (total_citations), not pages.
    expect(text).toContain(`*Citations*\n${countText(latest.total_citations)}`);
    expect(text).toContain(`*Brand mentions*\n${countText(latest.brand_mentions)}`);
    expect(text).not.toContain('Total citations');
    expect(text).toMatch(/Citations {2}`[▁▂▃▄▅▆▇█·]+`/);
    expect(text).toMatch(/Brand mentions {2}`[▁▂▃▄▅▆▇█·]+`/);
    expect(text).toContain('*Competitor mentions*');
    for (const name of Object.keys(expected.competitor_time_series)) expect(text).toContain(`*${name}*`);
  });

  it('refuses days outside 7–365', async () => {
    const { reply } = await h.command('citations "Acme Analytics" history --days 3');
    expect(reply.text).toContain('`--days` takes a whole number from 7 to 365');
    expect(visibleText(reply)).toContain('Usage: `/visibility citations <brand> history [--days 7-365]`');
    expect(h.sim.requests).toHaveLength(0);
  });
});

describe('citations queries, sources, feed, heatmap', () => {
  it('queries: clusters with coverage, top and gap queries, new and rising counts', async () => {
    const { reply } = await h.command('citations "Acme Analytics" queries');
    expect(citationsQueries()).toEqual([{ brand_id: acme.id, view: 'queries' }]);
    const expected = await simCitations<{
      clusters: Array<{ label: string; coverage_rate: number }>;
      top_queries: Array<{ query: string }>;
      new_queries_count: number;
      rising_queries_count: number;
    }>({ view: 'queries' });
    const text = visibleText(reply);
    for (const c of expected.clusters) expect(text).toContain(`*${c.label}*`);
    expect(text).toContain(`coverage *${percentText(expected.clusters[0]!.coverage_rate)}*`);
    expect(text).toContain(`“${expected.top_queries[0]!.query}”`);
    expect(text).toContain('*Gap queries*');
    expect(text).toContain(`${expected.new_queries_count} new`);
    expect(text).toContain(`${expected.rising_queries_count} rising`);
  });

  it('sources: one domain’s pages, competitors, sentiment, first and last seen', async () => {
    const { reply } = await h.command('citations "Acme Analytics" sources https://techcrunch.com/some/page');
    expect(citationsQueries()).toEqual([{ brand_id: acme.id, view: 'sources', domain: 'techcrunch.com' }]);
    const expected = await simCitations<{
      pages: Array<{ url: string; appearance_count: number }>;
      competitors_on_domain: string[];
      first_seen: string;
      last_seen: string;
      total_citations: number;
    }>({ view: 'sources', domain: 'techcrunch.com' });
    const text = visibleText(reply);
    // Every page, most cited first, linked in Slack's table; its citations sortable as numbers.
    const byCitations = [...expected.pages].sort((a, b) => b.appearance_count - a.appearance_count);
    expect(tableLinks(reply)).toEqual(byCitations.map((p) => p.url));
    const [table] = dataTables(reply);
    expect(table!.rows[0]!.map((c) => c.text)).toEqual([
      'Page',
      'Citations',
      'Sentiment',
      'Mentions you',
      'Competitors named',
    ]);
    expect(table!.rows.slice(1).map((row) => row[1]!.type)).toEqual(expected.pages.map(() => 'raw_number'));
    for (const c of expected.competitors_on_domain) expect(text).toContain(c);
    // Dates are Slack's tokens (each reader's own zone), read here as their fallback text.
    expect(JSON.stringify(reply.blocks)).toContain(`first seen <!date^`);
    expect(text).toContain(`first seen ${dayText(expected.first_seen)}`);
    expect(text).toContain(dayText(expected.last_seen));
    expect(text).toContain(`*Citations*\n${countText(expected.total_citations)}`);
  });

  it('sources without a domain answers with usage and sends nothing', async () => {
    const { reply } = await h.command('citations "Acme Analytics" sources');
    expect(reply.text).toContain('Name the domain');
    expect(visibleText(reply)).toContain('Usage: `/visibility citations <brand> sources <domain>');
    expect(h.sim.requests).toHaveLength(0);
  });

  it('sources for a domain without citations explains the 404', async () => {
    const { reply } = await h.command('citations "Acme Analytics" sources nowhere-cited.example');
    expect(citationsQueries()).toEqual([
      { brand_id: acme.id, view: 'sources', domain: 'nowhere-cited.example' },
    ]);
    expect(h.sim.requests.at(-1)?.status).toBe(404);
    expect(visibleText(reply)).toContain('No citations for this domain');
    expect(visibleText(reply)).toContain('must match exactly');
  });

  it('feed: events grouped by type with counts, current vs previous snapshot', async () => {
    const { reply } = await h.command('citations "Acme Analytics" feed --days-back 7');
    expect(citationsQueries()).toEqual([{ brand_id: acme.id, view: 'feed', days_back: '7', limit: '500' }]);
    const expected = await simCitations<{
      events: Array<{ event_type: string; url: string }>;
      current_snapshot_date: string;
      previous_snapshot_date: string;
      total_current: number;
    }>({ view: 'feed', days_back: '7', limit: '500' });
    const text = visibleText(reply);
    const count = (t: string) => expected.events.filter((e) => e.event_type === t).length;
    expect(count('lost')).toBeGreaterThan(0);
    expect(text).toContain(`*Lost* (${count('lost')})`);
    expect(text).toContain(`*New* (${count('new')})`);
    // The feed's totals count pages: the glossary's cited pages, with both days.
    expect(text).toContain(
      `Cited pages: ${countText(expected.total_current)} on ${dayText(expected.current_snapshot_date)} vs `,
    );
    expect(text).toContain(dayText(expected.previous_snapshot_date));
    // losses come before new URLs
    expect(text.indexOf('*Lost*')).toBeLessThan(text.indexOf('*New*'));
    expect(text).toContain(expected.events[0]!.url);
  });

  it('feed refuses days-back outside 1–30', async () => {
    const { reply } = await h.command('citations "Acme Analytics" feed --days-back 31');
    expect(reply.text).toContain('`--days-back` takes a whole number from 1 to 30');
    expect(h.sim.requests).toHaveLength(0);
  });

  it('heatmap: a ✓/· grid of domains × brands and coverage against competitors', async () => {
    const { reply } = await h.command('citations "Acme Analytics" heatmap');
    expect(citationsQueries()).toEqual([{ brand_id: acme.id, view: 'heatmap' }]);
    const expected = await simCitations<{
      domains: string[];
      brands: string[];
      your_coverage: number;
      competitor_coverage: Record<string, number>;
    }>({ view: 'heatmap' });
    const text = visibleText(reply);
    // A row per domain in Slack's table, a sortable ✓ (1) or · (0) column per brand, yours first.
    const [table] = dataTables(reply);
    const header = table!.rows[0]!.map((c) => c.text);
    expect(header[0]).toBe('Cited domain');
    expect(header[1]).toBe('Acme Analytics');
    expect(header.at(-1)).toBe('Brands mentioned');
    const shown = table!.rows.slice(1);
    expect(shown.length).toBeGreaterThanOrEqual(Math.min(25, expected.domains.length));
    expect(shown.map((row) => row[0]!.text)).toEqual(expected.domains.slice(0, shown.length));
    for (const row of shown) {
      const marks = row.slice(1, -1);
      for (const m of marks)
        expect([m.type, m.text, m.value]).toEqual(
          m.value === 1 ? ['raw_number', '✓', 1] : ['raw_number', '·', 0],
        );
      expect(row.at(-1)!.value).toBe(marks.filter((m) => m.value === 1).length);
    }
    expect(shown.some((row) => row[1]!.value === 1)).toBe(true);
    // The one percent rounding: whole percents, as every screen writes them.
    expect(text).toContain(`*Acme Analytics* (you) — coverage ${percentText(expected.your_coverage)}`);
    for (const [name, pct] of Object.entries(expected.competitor_coverage)) {
      expect(text).toContain(`${name} — coverage ${percentText(pct)}`);
    }
  });

  it('offers a Share button that re-runs the view by brand id', async () => {
    const { reply } = await h.command('citations acme analytics feed --days-back 3');
    expect(buttons(reply).find((b) => b.action_id === 'vis:share')?.value).toBe(
      `citations ${acme.id} feed --days-back 3`,
    );
  });
});
