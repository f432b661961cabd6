/**
 * Crawler replies a marketer can read, through the local Slack, the real service and the
 * API simulator: field names in words, units and percentages, HTTP statuses explained,
 * times as Slack's relative date token, internal ids kept out of the text, also for fields
 * the service adds that nobody told the bot about; and an access finding's fix previewed
 * with one click instead of a copied id.
 */
import { describe, expect, it } from 'vitest';
import { SEED_BRANDS } from '../../src/dev/simulator/index.js';
import {
  buttons,
  cellShown,
  dataTables,
  type ReplyBody,
  simJson,
  tableRow,
  useReadHarness,
  visibleText,
} from './read-commands-harness.js';

const acme = SEED_BRANDS.acme;
const h = useReadHarness();

/** What a reader sees, with Slack's own tokens (links, dates, emoji) taken out: they are markup. */
const readable = (reply: ReplyBody) =>
  visibleText(reply)
    .replace(/<[^>\n]*>/g, ' ')
    .replace(/:[a-z0-9_+-]+:/g, ' ');
const SNAKE = /\b[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+\b/g;
const INTERNAL_ID = /\b(vis|fnd)_[a-z0-9_]+/i;

describe('crawler views in plain words', () => {
  it('a live payload with fields nobody documented shows no snake_case and no internal ids', async () => {
    const visitedAt = '2026-11-24T06:00:00Z';
    h.sim.control.injectFault({
      kind: 'status',
      status: 200,
      path: '/crawler/live',
      body: {
        brand_id: acme.id,
        view: 'activity',
        summary: {
          error_rate_pct: 2,
          avg_response_ms: 310,
          crawl_budget_remaining: 1200,
          render_mode: 'server_side',
        },
        items: [
          {
            id: 'vis_20780_1_152',
            crawler: 'OAI-SearchBot',
            url: 'https://www.acmeanalytics.com/product/funnels',
            path: '/product/funnels',
            response_ms: 240,
            status_code: 404,
            platform: 'openai',
            intent: 'search',
            bot_type: 'search',
            visited_at: visitedAt,
            session_ref: 'fnd_e2f496a904b5',
          },
        ],
        meta: { total: 1, next_cursor: null },
        shiny_new_metric: { weekly_growth_pct: 12, cache_hit_ratio: 0.8 },
      },
    });
    const { reply } = await h.command('crawler "Acme Analytics" live');
    const text = readable(reply);
    expect(text.match(SNAKE)).toBeNull();
    expect(text).not.toMatch(INTERNAL_ID);
    // The visit is a row of Slack's table, each field under its name in words.
    const row = tableRow(reply, 1);
    expect(row).toMatchObject({
      Crawler: 'OAI-SearchBot',
      'Response time': '240 ms',
      'HTTP status': '404 Not found',
      'AI company': 'OpenAI',
    });
    expect(Object.keys(row).join(' ').match(SNAKE)).toBeNull();
    expect(Object.values(row).join(' ')).not.toMatch(INTERNAL_ID);
    expect(text).toContain('error rate 2 %');
    expect(text).toContain('Shiny new metric');
    expect(text).toContain('weekly growth 12 %');
    expect(text).toContain('Server side');
    // The visit time in the one date style, sortable as a time.
    const visited = dataTables(reply)[0]!.rows[1]!.find((cell) => cell.text?.includes(' at '));
    expect(visited).toEqual({
      type: 'raw_number',
      value: Date.parse(visitedAt),
      text: 'Nov 24, 2026 at 6:00 AM UTC',
    });
  });

  it('the simulator’s own live, pages and access payloads read the same way', async () => {
    for (const tab of ['live', 'live --view pages', 'pages', 'access', 'submit-status']) {
      const { reply } = await h.command(`crawler "Acme Analytics" ${tab}`);
      const text = readable(reply);
      expect({ tab, snake: text.match(SNAKE) }).toEqual({ tab, snake: null });
      expect(text).not.toMatch(INTERNAL_ID);
    }
  });

  it('Preview fix on an access finding runs the preview for that finding, as a new message', async () => {
    const access = await h.command('crawler "Acme Analytics" access');
    const fixes = buttons(access.reply).filter((b) => b.action_id.startsWith('vis:crawler:preview-fix:'));
    const expected = await simJson<{ findings: Array<{ id: string; title: string }> }>(
      h.sim,
      '/crawler/access',
      { brand_id: acme.id },
    );
    expect(fixes[0]?.text.text).toBe(`Preview fix: ${expected.findings[0]!.title}`);
    const clicked = await h.click(access.reply, fixes[0]!.action_id);
    expect(h.requestsTo('/crawler/access/preview-fix').map((r) => r.body)).toEqual([
      { brand_id: acme.id, finding_id: expected.findings[0]!.id },
    ]);
    expect(clicked.reply.replace_original).toBe(false);
    const text = readable(clicked.reply);
    expect(text).toContain('Nothing was changed');
    expect(text).not.toMatch(INTERNAL_ID);
  });
});

/** The field-dump patterns the drawers and the Access tab used to show (`verdict: status …`). */
const DUMPS = [
  /\bheadline\b/i,
  /\bdetail\b/i,
  /\breached\b/i,
  /\bcount \d/,
  /\bdate \d{4}/,
  /\bfix available\b/i,
  /\bseverity\b/i,
  /\bcategory\b/i,
  /: —/,
  /\bstatus [A-Z]/,
  // A yes or no as a field's whole value (prose such as "have no list" is fine).
  /\b(yes|no)(?= ·|\n|$)/,
];
const expectNoDumps = (text: string) => {
  for (const dump of DUMPS) expect(text, String(dump)).not.toMatch(dump);
  // Numbers are grouped; only years stand as four digits.
  for (const [n] of text.matchAll(/(?<![\d,.])\d{4,}(?![\d,.])/g)) expect(n).toMatch(/^20\d\d$/);
};

describe('drawers and the Access tab read as sentences, not fields', () => {
  it('a page drawer: the verdict a sentence, the pipeline a progression, traffic as totals and a small chart', async () => {
    const pages = await h.command('crawler "Acme Analytics" pages --limit 3');
    const page = await h.click(pages.reply, 'vis:crawler:drawer:0');
    const text = readable(page.reply);
    expectNoDumps(text);
    expect(text).toContain(
      '*Cited and converting.* AI answers cite this page and send visitors who convert.',
    );
    expect(text).toContain('✓ crawled → ✓ healthy → ✓ cited → ✓ converting');
    expect(text).toMatch(/\*Traffic\*: [\d,]+ total visits/);
    expect(text).toMatch(/\*By day\*: `[▁▂▃▄▅▆▇█]{30}` [\d,]+ on [A-Z][a-z]{2} \d+ → /);
    // Acme's firewall answers Bytespider 403: a problem, its severity in a word.
    expect(text).toContain('Error: Bytespider receives 403 on this page.');
  });

  it('a path drawer counts pages at each stage; a bot drawer says what it does', async () => {
    const paths = await h.command('crawler "Acme Analytics" pages --lens paths --limit 3');
    const path = readable((await h.click(paths.reply, 'vis:crawler:drawer:0')).reply);
    expectNoDumps(path);
    expect(path).toMatch(/\*Pipeline\*: crawled \d+ → healthy \d+ → cited \d+ → converting \d+ \(pages\)/);
    expect(path).toMatch(/\*\d+ pages, [\d,]+ visits\.\*/);
    const bots = await h.command('crawler "Acme Analytics" pages --lens bots --limit 20');
    const bytespider = buttons(bots.reply).find((b) => b.value?.includes('"entityId":"Bytespider"'));
    const bot = readable((await h.click(bots.reply, bytespider!.action_id)).reply);
    expectNoDumps(bot);
    expect(bot).toContain('*Blocked by robots.txt.* Bytespider only fetches robots.txt.');
    expect(bot).toContain('✗ allowed by robots.txt → ✗ reachable');
    expect(bot).toContain('Warning: robots.txt disallows Bytespider.');
  });

  it('the Access tab: what is wrong, then what to do; bot access as a table', async () => {
    const { reply } = await h.command('crawler "Globex Corporation" access');
    const text = readable(reply);
    expectNoDumps(text);
    const access = await simJson<{
      findings: Array<{ title: string; description: string; recommendation: string }>;
    }>(h.sim, '/crawler/access', { brand_id: SEED_BRANDS.globex.id });
    for (const f of access.findings) {
      expect(text).toContain(`*${f.title}*`);
      expect(text).toContain(f.description);
      expect(text).toContain(`→ ${f.recommendation}`);
    }
    // The most urgent first: the blocked search crawler before the training one.
    expect(text.indexOf('High priority: *robots.txt blocks PerplexityBot*')).toBeGreaterThan(-1);
    expect(text.indexOf('High priority: *robots.txt blocks PerplexityBot*')).toBeLessThan(
      text.indexOf('Low priority: *robots.txt blocks GPTBot*'),
    );
    // One row per crawler in Slack's own table, named in words, the visits sortable as numbers.
    const [table] = dataTables(reply);
    expect(table?.caption).toBe('Bot access');
    const rows = (table?.rows ?? []).map((row) => row.map(cellShown));
    expect(rows).toHaveLength(15);
    expect(rows[0]!.slice(0, 3)).toEqual(['Crawler', 'AI company', 'Purpose']);
    const gpt = rows.find((row) => row[0] === 'GPTBot');
    expect(gpt?.slice(0, 6)).toEqual(['GPTBot', 'OpenAI', 'Training', 'disallowed', '200 OK', '✗']);
    // A day sorts as a day: its cell is a number (the time) shown in the one date style.
    const seen = table!.rows[1]![6]!;
    expect(seen.type).toBe('raw_number');
    expect(seen.text).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
  });
});
