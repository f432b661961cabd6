import { describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_SETTINGS } from '../../../src/alerts/alert-settings.js';
import { renderBlocks } from '../../../src/dev/demo/render/render-blocks.js';
import { dataTable } from '../../../src/messages/data-table.js';
import { dayChart } from '../../../src/messages/day-chart.js';
import { escapeMrkdwn as e, mrkdwn } from '../../../src/messages/mrkdwn.js';
import { pieChart, seriesChart } from '../../../src/messages/native-chart.js';
import { marketsReply } from '../../../src/slack/features/markets/markets-view.js';
import { subscriptionsReply } from '../../../src/slack/features/subscriptions/subscriptions-view.js';
import { createStyle, stripAnsi } from '../../../src/terminal/style.js';

const plain = createStyle(false);
const render = (blocks: unknown[]) => renderBlocks(blocks, { style: plain }).lines;
const DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const dayLabel = (d: string) => DAY.format(Date.parse(`${d}T00:00:00Z`));

describe('the demo console draws data tables', () => {
  it('draws the markets and subscriptions lists as aligned columns, their controls under them', () => {
    const market = (location: string, isPrimary: boolean, name: string | null) => ({
      id: location,
      brand_id: 'b1',
      location,
      is_primary: isPrimary,
      active: true,
      created_at: '2026-01-02T08:00:00Z',
      market_name: name,
    });
    const markets = renderBlocks(
      marketsReply({
        id: 'b1',
        name: 'Acme',
        active: true,
        role: 'owner',
        markets: [market('DE', false, 'DACH launch'), market('US', true, null)],
      }).blocks,
      { style: plain },
    ).lines;
    expect(markets).toEqual(
      expect.arrayContaining([
        '▦ Markets (2)',
        'Country        Code  Primary  Tracking  Market name        Added',
        'United States  US    ⭐       On        —            Jan 2, 2026',
        'Germany        DE    —        On        DACH launch  Jan 2, 2026',
        '[1] Remove Germany (DE) (asks to confirm)',
      ]),
    );
    const now = Date.parse('2026-11-28T10:00:00Z');
    const sub = {
      id: 1,
      channelId: 'C1',
      brandId: 'b1',
      brandName: 'Acme',
      alerts: true,
      digest: false,
      settings: DEFAULT_ALERT_SETTINGS,
      createdBy: 'U1',
      createdAtMs: Date.parse('2026-11-01T10:00:00Z'),
      pausedReason: null,
      pausedAtMs: null,
      mutedUntilMs: null,
      lastDigestDate: null,
    };
    const subs = renderBlocks(subscriptionsReply([{ sub, snoozes: [], held: 3 }], 'UTC', now).blocks, {
      style: plain,
    }).lines;
    expect(subs).toEqual(
      expect.arrayContaining([
        '▦ Subscriptions (1)',
        'Brand  Alerts  Daily digest  Quiet hours  Status  Alerts held   Subscribed',
        'Acme   On      Off           None         Active            3  Nov 1, 2026',
        '[1] Edit settings: Acme',
      ]),
    );
  });

  const table = (rows: Array<[string, number | null]>, pageSize?: number) =>
    dataTable({
      caption: mrkdwn`Pages crawled, last 7 days`,
      header: [mrkdwn`Page`, mrkdwn`Visits`],
      rows: rows.map(([page, visits]) => [e(page), { number: visits }]),
      ...(pageSize ? { pageSize } : {}),
    }).block!;

  it('as aligned columns, numbers on the right, entities shown as characters', () => {
    const lines = render([
      { type: 'section', text: { type: 'mrkdwn', text: 'Above' } },
      table([
        ['/pricing', 1234],
        ['/blog/ai-&-seo', 56],
        ['/about', null],
      ]),
    ]);
    expect(lines).toEqual([
      'Above',
      '',
      '▦ Pages crawled, last 7 days',
      'Page            Visits',
      '/pricing         1,234',
      '/blog/ai-&-seo      56',
      '/about               —',
    ]);
  });

  it('shows the first page and says what the other pages hold; long cells are cut', () => {
    const rows = Array.from({ length: 12 }, (_, i): [string, number] => [`/${'x'.repeat(i * 10)}`, i]);
    const lines = render([table(rows, 5)]);
    expect(lines).toHaveLength(2 + 5 + 1);
    expect(lines.at(-1)).toBe('  page 1 of 3: 7 more rows on the next pages');
    expect(lines.slice(0, -1).every((l) => l.length <= 32 + 2 + 6)).toBe(true);
    expect(lines).toContain(`/${'x'.repeat(30)}…  ${'4'.padStart(6)}`);
  });

  it('reads rich_text cells and bolds the header with colour on', () => {
    const block = {
      type: 'data_table',
      caption: 'Links',
      rows: [
        [{ type: 'raw_text', text: 'Page' }],
        [
          {
            type: 'rich_text',
            elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'Acme home' }] }],
          },
        ],
      ],
    };
    const lines = renderBlocks([block], { style: createStyle(true) }).lines;
    expect(lines[1]).toContain('\x1b[1m');
    expect(lines.map(stripAnsi)).toEqual(['▦ Links', 'Page', 'Acme home']);
  });
});

describe('the demo console draws charts with their figures', () => {
  it('a bar chart of one series as bars with each figure', () => {
    const { block } = seriesChart({
      type: 'bar',
      title: mrkdwn`Visits by crawler`,
      series: [
        {
          name: mrkdwn`Visits`,
          points: [
            { label: mrkdwn`GPTBot`, value: 1200 },
            { label: mrkdwn`ClaudeBot`, value: 600 },
            { label: mrkdwn`Bytespider`, value: 0 },
          ],
        },
      ],
    });
    expect(render([block])).toEqual([
      'Visits by crawler (bar chart)',
      `  GPTBot      ${'█'.repeat(24)} 1,200`,
      `  ClaudeBot   ${'█'.repeat(12)} 600`,
      '  Bytespider   0',
    ]);
  });

  it('a pie as bars with each slice’s share', () => {
    const { block } = pieChart({
      title: mrkdwn`Visits by bot type`,
      segments: [
        { label: mrkdwn`Search bot`, value: 75 },
        { label: mrkdwn`Training bot`, value: 25 },
      ],
    });
    const lines = render([block]);
    expect(lines[0]).toBe('Visits by bot type (pie chart)');
    expect(lines[1]).toMatch(/^ {2}Search bot {4}█{24} 75 \(75 %\)$/);
    expect(lines[2]).toMatch(/^ {2}Training bot {2}█{8} 25 \(25 %\)$/);
  });

  it('a line chart as one sparkline per series on one scale, gaps where a day has no figure', () => {
    const days = (values: Array<number | null>) =>
      values.map((value, i) => ({ date: `2026-11-0${i + 1}`, value }));
    const { block } = dayChart({
      type: 'line',
      title: mrkdwn`Brand mentions`,
      longSpan: 'cut',
      dayLabel,
      series: [
        { name: mrkdwn`Acme`, days: days([0, 4, 8, 12, 16, 20, 24, 28]) },
        { name: mrkdwn`Globex`, days: days([14, 14, null, 14, 14, 14, 14, 14]) },
      ],
    });
    expect(render([block])).toEqual([
      'Brand mentions (line chart)',
      '  Acme    ▁▂▃▄▅▆▇█  0 → 28 (low 0, high 28)',
      '  Globex  ▅▅ ▅▅▅▅▅  14 → 14 (low 14, high 14)',
      '          1 Nov … 8 Nov (8)',
    ]);
  });

  it('a series without points says so', () => {
    const block = {
      type: 'data_visualization',
      title: 'Nothing',
      chart: { type: 'area', series: [{ name: 'A', data: [] }], axis_config: { categories: ['x'] } },
    };
    expect(render([block])).toEqual(['Nothing (area chart)', '  A     no data']);
  });
});
