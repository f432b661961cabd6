/**
 * Records as Slack's own `data_table` block, end to end through the local Slack (which
 * validates the block against Slack's reference) and the API simulator: figures as
 * `raw_number` cells, a caption and a page size, a details button per row under the table,
 * hostile titles and addresses kept as text, and, when the workspace refuses the block, the
 * same reply once more with the table as lines of text.
 */

import { describe, expect, it } from 'vitest';
import { SEED_BRANDS } from '../../src/dev/simulator/index.js';
import { liveMarkup, notPhish } from '../helpers/live-slack-markup.js';
import { replyAfterRefusedTable } from '../helpers/refused-table.js';
import {
  buttons,
  cellShown,
  dataTables,
  type ReplyBody,
  simJson,
  useReadHarness,
  visibleText,
} from './read-commands-harness.js';

const acme = SEED_BRANDS.acme;
const h = useReadHarness();
const HOSTILE = 'Pricing <!channel> <https://phish.example|Your dashboard> & *bold*';
const decode = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

const drawerButtons = (reply: ReplyBody) =>
  buttons(reply).filter((b) => b.action_id.startsWith('vis:crawler:drawer:'));

/** The cells of a table's column (without its header), by header. */
function column(reply: ReplyBody, header: string) {
  const [table] = dataTables(reply);
  const rows = table?.rows ?? [];
  const at = (rows[0] ?? []).findIndex((cell) => cell.text === header);
  expect(at, `column ${header}`).toBeGreaterThanOrEqual(0);
  return rows.slice(1).map((row) => row[at]!);
}

describe('crawler listings from the simulator', () => {
  it('each view and lens is a table Slack accepts, its figures sortable, a details button per row', async () => {
    const views: Array<[string, string]> = [
      ['live --limit 12', 'Live crawler visits'],
      ['live --view pages --limit 12', 'Live crawler visits by page'],
      ['live --view sessions --limit 12', 'Live crawler sessions'],
      ['pages --limit 12', 'AI crawler pages'],
      ['pages --lens paths', 'AI crawler pages by path'],
      ['pages --lens bots', 'AI crawler pages by crawler'],
    ];
    for (const [args, title] of views) {
      // h.command fails the test when the local Slack refuses the reply.
      const { reply } = await h.command(`crawler "Acme Analytics" ${args}`);
      const tables = dataTables(reply);
      expect(tables, args).toHaveLength(1);
      const table = tables[0]!;
      expect(table.caption).toMatch(new RegExp(`^${title}: Rows 1–\\d+`));
      expect(table.page_size).toBe(10);
      const rows = table.rows.length - 1;
      expect(drawerButtons(reply), args).toHaveLength(rows);
      // Every numeric column is raw_number throughout: Slack sorts it by value.
      const types = table.rows[1]!.map((_, i) => new Set(table.rows.slice(1).map((r) => r[i]!.type)));
      expect(
        types.some((t) => t.has('raw_number')),
        args,
      ).toBe(true);
      for (const t of types) if (t.has('raw_number')) expect(t.size, args).toBe(1);
      // The text fallback names the rows too (notifications, clients without the table).
      expect(reply.text.split('\n')[0]).toMatch(new RegExp(`^${title} for Acme Analytics: Rows 1–${rows}`));
      expect(reply.text.split('\n')[1]).toBe(table.caption);
    }
  });

  it('the visits column holds the simulator’s numbers, and a button opens that row’s page', async () => {
    const { reply } = await h.command('crawler "Acme Analytics" pages --limit 5');
    const expected = await simJson<{ items: Array<{ url: string; title: string; visits: number }> }>(
      h.sim,
      '/crawler/pages',
      { brand_id: acme.id, limit: '5' },
    );
    expect(column(reply, 'Visits').map((c) => c.value)).toEqual(expected.items.map((i) => i.visits));
    expect(column(reply, 'Page').map(cellShown)).toEqual(expected.items.map((i) => `<${i.url}|${i.title}>`));
    expect(column(reply, 'Visits').every((c) => c.type === 'raw_number')).toBe(true);
    const third = drawerButtons(reply)[2]!;
    expect(third.text.text).toBe(`Page details: ${expected.items[2]!.title}`);
    const opened = await h.click(reply, third.action_id);
    expect(h.requestsTo('/crawler/page-details').at(-1)?.query).toMatchObject({
      entity_id: expected.items[2]!.url,
    });
    expect(visibleText(opened.reply)).toContain('Page details');
  });

  it('hostile titles and addresses stay text: escaped cells, no live link', async () => {
    h.sim.control.injectFault({
      kind: 'status',
      status: 200,
      path: '/crawler/pages',
      body: {
        items: [
          { url: 'https://www.acmeanalytics.com/pricing', title: HOSTILE, visits: 3, status: 'cited' },
          { url: 'javascript:alert(1)', title: 'Script', visits: 2, status: 'cold' },
          { url: 'https://www.acmeanalytics.com/<!here>', title: 'Odd address', visits: 1, status: 'cold' },
        ],
        meta: { total: 3, next_cursor: null },
      },
    });
    const { reply } = await h.command('crawler "Acme Analytics" pages');
    expect(liveMarkup(reply, { allowedUrls: notPhish })).toEqual([]);
    const pages = column(reply, 'Page');
    // The title is the link's text, escaped; Slack shows it as typed.
    expect(pages[0]).toMatchObject({ type: 'rich_text' });
    expect(decode(cellShown(pages[0]!))).toBe(`<https://www.acmeanalytics.com/pricing|${HOSTILE}>`);
    expect(cellShown(pages[0]!)).not.toContain('<!channel>');
    // An address that is not a web page is no link: its title is plain text.
    expect(pages[1]).toEqual({ type: 'raw_text', text: 'Script' });
    // Markup inside an address is encoded, never live.
    expect(cellShown(pages[2]!)).toBe('<https://www.acmeanalytics.com/%3C!here%3E|Odd address>');
    // The fallback text and the button labels carry the title escaped as well.
    expect(reply.text).toContain('&lt;!channel&gt;');
    expect(drawerButtons(reply)[0]!.text.text).toContain('&lt;!channel&gt;');
  });
});

describe('a workspace that refuses the table', () => {
  it('gets the same reply once more with the table as lines, buttons and paging kept', async () => {
    const { refused, resent } = await replyAfterRefusedTable(h.slack, h.appUrl, {
      text: 'crawler "Acme Analytics" pages --limit 4',
    });
    const reply = resent as ReplyBody;
    expect(dataTables(reply)).toEqual([]);
    const expected = await simJson<{ items: Array<{ url: string; title: string; visits: number }> }>(
      h.sim,
      '/crawler/pages',
      { brand_id: acme.id, limit: '4' },
    );
    const text = visibleText(reply);
    expect(text).toContain('*AI crawler pages: Rows 1–4');
    for (const item of expected.items) {
      // A `|` would end the link's text early: it reads as `¦`.
      expect(text).toContain(`• <${item.url}|${item.title.replace(/\|/g, '¦')}> — `);
      expect(text).toContain(`Visits: ${item.visits.toLocaleString('en-US')}`);
    }
    expect(drawerButtons(reply)).toHaveLength(4);
    expect(buttons(reply).some((b) => b.action_id === 'vis:crawler:more')).toBe(true);
    // Only the table went; the same message otherwise.
    expect(reply.text).toBe((refused as ReplyBody).text);
  });
});
