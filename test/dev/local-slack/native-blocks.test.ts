/**
 * The local Slack knows data_table and data_visualization as Slack's reference states them,
 * answers invalid_blocks like Slack, and can be told to refuse them; every table and chart
 * our builders make, from any data, is accepted.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateBlocks } from '../../../src/dev/local-slack/index.js';
import { dataTable, type TableCell } from '../../../src/messages/data-table.js';
import { dayChart } from '../../../src/messages/day-chart.js';
import { escapeMrkdwn } from '../../../src/messages/mrkdwn.js';
import { pieChart, seriesChart } from '../../../src/messages/native-chart.js';
import { platformError, useAckServer, useFixture } from './local-slack-fixture.js';

const f = useFixture();
const app = useAckServer();

const rawText = (text: string) => ({ type: 'raw_text', text });
const rawNumber = (value: number, text = String(value)) => ({ type: 'raw_number', value, text });
const table = (rows: unknown[][], extra: Record<string, unknown> = {}) => ({
  type: 'data_table',
  caption: 'Crawler pages',
  rows,
  ...extra,
});
const tableRows = (n: number) => [
  [rawText('Page'), rawText('Visits')],
  ...Array.from({ length: n }, (_, i) => [rawText(`/p/${i}`), rawNumber(i)]),
];
const point = (label: string, value: number) => ({ label, value });
const chart = (chartPayload: Record<string, unknown>, title = 'Citations') => ({
  type: 'data_visualization',
  title,
  chart: chartPayload,
});
const line = (series: unknown[], categories: string[] = ['Mon', 'Tue']) =>
  chart({ type: 'line', series, axis_config: { categories } });
const series = (name: string, data = [point('Mon', 1)]) => ({ name, data });

async function post(blocks: unknown[]) {
  return platformError(
    f.client.apiCall('chat.postMessage', { channel: f.slack.defaultChannelId, text: 'fallback', blocks }),
  );
}

/** Each rule of the reference: just inside it is accepted, just outside is `invalid_blocks` with Slack's hint. */
const RULES: Array<{ name: string; ok: unknown[]; bad: unknown[]; hint: string }> = [
  {
    name: 'a table holds a header and 1 to 100 rows',
    ok: [table(tableRows(100))],
    bad: [table(tableRows(101))],
    hint: 'no more than 101 items allowed [json-pointer:/blocks/0/rows]',
  },
  {
    name: 'a table needs a row besides the header',
    ok: [table(tableRows(1))],
    bad: [table(tableRows(0))],
    hint: 'must provide at least 2 items [json-pointer:/blocks/0/rows]',
  },
  {
    name: 'every row has the same number of cells',
    ok: [
      table([
        [rawText('a'), rawText('b')],
        [rawText('1'), rawNumber(2)],
      ]),
    ],
    bad: [table([[rawText('a'), rawText('b')], [rawText('1')]])],
    hint: 'all rows must have the same number of cells (2) [json-pointer:/blocks/0/rows/1]',
  },
  {
    name: 'at most 20 columns',
    ok: [
      table([Array.from({ length: 20 }, () => rawText('h')), Array.from({ length: 20 }, () => rawText('c'))]),
    ],
    bad: [
      table([Array.from({ length: 21 }, () => rawText('h')), Array.from({ length: 21 }, () => rawText('c'))]),
    ],
    hint: 'no more than 20 items allowed [json-pointer:/blocks/0/rows/0]',
  },
  {
    name: 'at most 10,000 characters across the cells',
    ok: [table([[rawText('h'.repeat(5000))], [rawText('c'.repeat(5000))]])],
    bad: [table([[rawText('h'.repeat(5000))], [rawText('c'.repeat(5001))]])],
    hint: 'cells must hold no more than 10000 characters in all [json-pointer:/blocks/0/rows]',
  },
  {
    name: 'a table needs a caption',
    ok: [table(tableRows(1))],
    bad: [{ type: 'data_table', rows: tableRows(1) }],
    hint: 'must provide a string [json-pointer:/blocks/0/caption]',
  },
  {
    name: 'no rich_text in the header row',
    ok: [
      table([
        [rawText('h')],
        [{ type: 'rich_text', elements: [{ type: 'rich_text_section', elements: [] }] }],
      ]),
    ],
    bad: [table([[{ type: 'rich_text', elements: [] }], [rawText('c')]])],
    hint: 'rich_text cannot be used in the header row [json-pointer:/blocks/0/rows/0/0/type]',
  },
  {
    name: 'a raw_number cell carries a number',
    ok: [table([[rawText('h')], [rawNumber(1.5)]])],
    bad: [table([[rawText('h')], [{ type: 'raw_number', value: '1', text: '1' }]])],
    hint: 'must provide a number [json-pointer:/blocks/0/rows/1/0/value]',
  },
  {
    name: 'cells are never empty',
    ok: [table([[rawText('h')], [rawText('x')]])],
    bad: [table([[rawText('h')], [rawText('')]])],
    hint: 'must be more than 0 characters [json-pointer:/blocks/0/rows/1/0/text]',
  },
  {
    name: 'page_size is 1 to 100',
    ok: [table(tableRows(1), { page_size: 100 })],
    bad: [table(tableRows(1), { page_size: 101 })],
    hint: 'must be at most 100 [json-pointer:/blocks/0/page_size]',
  },
  {
    name: 'the row header column is one of the columns',
    ok: [table(tableRows(1), { row_header_column_index: 1 })],
    bad: [table(tableRows(1), { row_header_column_index: 2 })],
    hint: 'must be at most 1 [json-pointer:/blocks/0/row_header_column_index]',
  },
  {
    name: 'a chart title has at most 50 characters',
    ok: [line([series('Acme')]), { ...line([series('Acme')]), title: 't'.repeat(50) }],
    bad: [{ ...line([series('Acme')]), title: 't'.repeat(51) }],
    hint: 'must be less than 51 characters [json-pointer:/blocks/0/title]',
  },
  {
    name: 'at most 6 series',
    ok: [line(Array.from({ length: 6 }, (_, i) => series(`S${i}`)))],
    bad: [line(Array.from({ length: 7 }, (_, i) => series(`S${i}`)))],
    hint: 'no more than 6 items allowed [json-pointer:/blocks/0/chart/series]',
  },
  {
    name: 'a series name has at most 20 characters',
    ok: [line([series('n'.repeat(20))])],
    bad: [line([series('n'.repeat(21))])],
    hint: 'must be less than 21 characters [json-pointer:/blocks/0/chart/series/0/name]',
  },
  {
    name: 'series names are unique',
    ok: [line([series('Acme'), series('Globex')])],
    bad: [line([series('Acme'), series('Acme')])],
    hint: 'duplicate series name: Acme [json-pointer:/blocks/0/chart/series/1/name]',
  },
  {
    name: 'a series has 1 to 20 points',
    ok: [
      line([
        series(
          'A',
          Array.from({ length: 20 }, () => point('Mon', 1)),
        ),
      ]),
    ],
    bad: [
      line([
        series(
          'A',
          Array.from({ length: 21 }, () => point('Mon', 1)),
        ),
      ]),
    ],
    hint: 'no more than 20 items allowed [json-pointer:/blocks/0/chart/series/0/data]',
  },
  {
    name: 'a series has a point',
    ok: [line([series('A')])],
    bad: [line([series('A', [])])],
    hint: 'must provide at least 1 item [json-pointer:/blocks/0/chart/series/0/data]',
  },
  {
    name: 'point labels are among the categories',
    ok: [line([series('A', [point('Tue', 2)])])],
    bad: [line([series('A', [point('Wed', 2)])])],
    hint: 'must be one of axis_config.categories [json-pointer:/blocks/0/chart/series/0/data/0/label]',
  },
  {
    name: 'labels have at most 20 characters',
    ok: [line([series('A', [point('l'.repeat(20), 1)])], ['l'.repeat(20)])],
    bad: [line([series('A', [point('l'.repeat(21), 1)])], ['l'.repeat(21)])],
    hint: 'must be less than 21 characters [json-pointer:/blocks/0/chart/axis_config/categories/0]',
  },
  {
    name: 'a line chart needs its axis_config',
    ok: [line([series('A')])],
    bad: [chart({ type: 'line', series: [series('A')] })],
    hint: 'must provide an object [json-pointer:/blocks/0/chart/axis_config]',
  },
  {
    name: 'a pie has 1 to 6 slices',
    ok: [chart({ type: 'pie', segments: Array.from({ length: 6 }, (_, i) => point(`S${i}`, 1)) })],
    bad: [chart({ type: 'pie', segments: Array.from({ length: 7 }, (_, i) => point(`S${i}`, 1)) })],
    hint: 'no more than 6 items allowed [json-pointer:/blocks/0/chart/segments]',
  },
  {
    name: 'pie slices are greater than 0',
    ok: [chart({ type: 'pie', segments: [point('A', 0.1)] })],
    bad: [chart({ type: 'pie', segments: [point('A', 0)] })],
    hint: 'must be greater than 0 [json-pointer:/blocks/0/chart/segments/0/value]',
  },
  {
    name: 'the chart type is pie, bar, area or line',
    ok: [chart({ type: 'area', series: [series('A')], axis_config: { categories: ['Mon'] } })],
    bad: [chart({ type: 'scatter', series: [series('A')], axis_config: { categories: ['Mon'] } })],
    hint: 'unsupported type: scatter [json-pointer:/blocks/0/chart/type]',
  },
  {
    name: 'at most 2 charts per message',
    ok: [line([series('A')]), chart({ type: 'pie', segments: [point('A', 1)] })],
    bad: [line([series('A')]), line([series('B')]), line([series('C')])],
    hint: 'no more than 2 data_visualization blocks allowed [json-pointer:/blocks]',
  },
  {
    name: 'at most 10,000 characters across all tables of a message',
    ok: [
      table([[rawText('h')], [rawText('c'.repeat(4999))]]),
      table([[rawText('h')], [rawText('c'.repeat(4999))]]),
    ],
    bad: [
      table([[rawText('h')], [rawText('c'.repeat(5000))]]),
      table([[rawText('h')], [rawText('c'.repeat(5000))]]),
    ],
    hint: 'tables must hold no more than 10000 characters in all [json-pointer:/blocks]',
  },
];

describe('data_table and data_visualization in chat.postMessage (through WebClient)', () => {
  it.each(RULES)('$name', async ({ ok, bad, hint }) => {
    expect((await post(ok)).error).toBe('ok');
    const { error, data } = await post(bad);
    expect(error).toBe('invalid_blocks');
    expect(data['errors']).toContain(hint);
  });

  it('keeps them in the message as sent, for the demo and the tests to read', async () => {
    const blocks = [table(tableRows(2)), line([series('Acme')])];
    await f.client.apiCall('chat.postMessage', { channel: f.slack.defaultChannelId, text: 'x', blocks });
    expect(f.slack.messages(f.slack.defaultChannelId).at(-1)?.blocks).toEqual(blocks);
  });
});

describe('refusing them, as a workspace without the newer blocks does', () => {
  const blocks = [table(tableRows(1))];

  it('answers invalid_blocks for the refused types until they are accepted again', async () => {
    f.slack.refuseBlocks();
    const refused = await post(blocks);
    expect(refused.error).toBe('invalid_blocks');
    expect(refused.data['errors']).toEqual(['unsupported type: data_table [json-pointer:/blocks/0/type]']);
    expect((await post([line([series('A')])])).error).toBe('invalid_blocks');
    // Everything else still goes through.
    expect((await post([{ type: 'divider' }])).error).toBe('ok');
    f.slack.acceptBlocks();
    expect((await post(blocks)).error).toBe('ok');
  });

  it('refuses only the types named, and reset() lifts the switch', async () => {
    f.slack.refuseBlocks(['data_visualization']);
    expect((await post(blocks)).error).toBe('ok');
    expect((await post([line([series('A')])])).error).toBe('invalid_blocks');
    f.slack.reset();
    expect((await post([line([series('A')])])).error).toBe('ok');
  });

  it('refuses them in views and on response_urls too', async () => {
    f.slack.refuseBlocks();
    const home = await platformError(
      f.client.apiCall('views.publish', { user_id: f.slack.defaultUserId, view: { type: 'home', blocks } }),
    );
    expect(home.error).toBe('invalid_blocks');
    const { responseUrlId } = await f.slack.slashCommand(app.url, { text: 'crawler Acme pages' });
    const hook = await fetch(f.slack.url.replace(/\/api\/$/, `/response/${responseUrlId}`), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'Crawler pages', blocks }),
    });
    expect(hook.status).toBe(400);
    expect(await hook.text()).toBe('invalid_blocks');
    expect(f.slack.responsesFor(responseUrlId)[0]?.errors).toEqual([
      'unsupported type: data_table [json-pointer:/blocks/0/type]',
    ]);
  });
});

// ---- every table and chart the builders make, from any data, is accepted

const anyText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom('<!channel>', 'AT&T & Sons', '👩‍💻 émoji', '', '   ', 'x'.repeat(400)),
);
const anyNumber = fc.oneof(
  fc.double({ noNaN: false }),
  fc.integer(),
  fc.constantFrom(null, undefined, 0, -1),
);
const anyCell: fc.Arbitrary<TableCell> = fc.oneof(
  anyText.map((t) => escapeMrkdwn(t)),
  anyNumber.map((n) => ({ number: n })),
);

describe('the builders’ output is accepted by the local Slack', () => {
  it('tables from any rows', () => {
    fc.assert(
      fc.property(
        anyText,
        fc.array(anyText, { minLength: 1, maxLength: 24 }),
        fc.array(fc.array(anyCell, { maxLength: 24 }), { maxLength: 130 }),
        fc.integer({ min: -5, max: 300 }),
        (caption, header, rows, pageSize) => {
          const { block } = dataTable({
            caption: escapeMrkdwn(caption),
            header: header.map((h) => escapeMrkdwn(h)),
            rows,
            pageSize,
          });
          if (block) expect(validateBlocks([block], 'message')).toBeUndefined();
        },
      ),
      { numRuns: 150 },
    );
  });

  it('line, bar and area charts from any series', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('line', 'bar', 'area') as fc.Arbitrary<'line' | 'bar' | 'area'>,
        anyText,
        fc.array(
          fc.record({
            name: anyText,
            points: fc.array(fc.record({ label: anyText, value: anyNumber }), { maxLength: 40 }),
          }),
          { maxLength: 9 },
        ),
        (type, title, input) => {
          const { block } = seriesChart({
            type,
            title: escapeMrkdwn(title),
            series: input.map((s) => ({
              name: escapeMrkdwn(s.name),
              points: s.points.map((p) => ({ label: escapeMrkdwn(p.label), value: p.value })),
            })),
          });
          if (block) expect(validateBlocks([block], 'message')).toBeUndefined();
        },
      ),
      { numRuns: 150 },
    );
  });

  it('pies and day charts from any figures', () => {
    const DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
    fc.assert(
      fc.property(
        fc.array(fc.record({ label: anyText, value: anyNumber }), { maxLength: 12 }),
        fc.array(
          fc.array(fc.record({ offset: fc.integer({ min: 0, max: 90 }), value: anyNumber }), {
            maxLength: 60,
          }),
          { minLength: 1, maxLength: 7 },
        ),
        fc.constantFrom('cut', 'sum', 'latest') as fc.Arbitrary<'cut' | 'sum' | 'latest'>,
        (segments, series, longSpan) => {
          const pie = pieChart({
            title: escapeMrkdwn('Visits by bot type'),
            segments: segments.map((s) => ({ label: escapeMrkdwn(s.label), value: s.value })),
          });
          const days = dayChart({
            type: 'line',
            title: escapeMrkdwn('Citations'),
            longSpan,
            dayLabel: (d) => DAY.format(Date.parse(`${d}T00:00:00Z`)),
            series: series.map((s, i) => ({
              name: escapeMrkdwn(`Brand ${i}`),
              days: s.map((p) => ({
                date: new Date(Date.UTC(2026, 8, 1) + p.offset * 86_400_000).toISOString().slice(0, 10),
                value: p.value,
              })),
            })),
          });
          const blocks = [pie.block, days.block].filter((b) => b !== undefined);
          expect(validateBlocks(blocks, 'message')).toBeUndefined();
        },
      ),
      { numRuns: 150 },
    );
  });
});
