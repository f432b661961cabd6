import { describe, expect, it } from 'vitest';
import type { DataTableCell } from '../../src/messages/block-kit-types.js';
import { dataTable, type TableCell } from '../../src/messages/data-table.js';
import { escapeMrkdwn as e, type Mrkdwn, mrkdwn } from '../../src/messages/mrkdwn.js';

const crawlers: Array<[string, number | null, number]> = [
  ['GPTBot', 1234, 12.5],
  ['ClaudeBot', 987, 9],
  ['PerplexityBot', null, 0],
];

function crawlerTable(rows = crawlers) {
  return dataTable({
    caption: mrkdwn`AI crawler visits, last 7 days`,
    header: [mrkdwn`Crawler`, mrkdwn`Visits`, mrkdwn`Share`],
    rows: rows.map(([name, visits, share]) => [
      e(name),
      { number: visits },
      { number: share, text: e(`${share} %`) },
    ]),
  });
}

const shown = (c: DataTableCell) => (c.type === 'rich_text' ? c.elements[0].elements[0].text : c.text);
const texts = (row: readonly DataTableCell[]) => row.map(shown);
const cellChars = (rows: readonly (readonly DataTableCell[])[]) =>
  rows.flat().reduce((n, c) => n + shown(c).length, 0);

describe('dataTable', () => {
  it('builds a header row and one row per record, numbers as raw_number cells Slack sorts', () => {
    const { block, text, omitted } = crawlerTable();
    expect(omitted).toBe(0);
    expect(block).toMatchObject({
      type: 'data_table',
      caption: 'AI crawler visits, last 7 days',
      page_size: 10,
    });
    expect(block!.rows).toHaveLength(4);
    expect(block!.rows[0]).toEqual([
      { type: 'raw_text', text: 'Crawler' },
      { type: 'raw_text', text: 'Visits' },
      { type: 'raw_text', text: 'Share' },
    ]);
    expect(block!.rows[1]).toEqual([
      { type: 'raw_text', text: 'GPTBot' },
      { type: 'raw_number', value: 1234, text: '1,234' },
      { type: 'raw_number', value: 12.5, text: '12.5 %' },
    ]);
    // Every data cell of a numeric column is raw_number, so Slack sorts it by value.
    for (const column of [1, 2]) {
      expect(block!.rows.slice(1).every((row) => row[column]!.type === 'raw_number')).toBe(true);
    }
    expect(text).toBe(
      [
        'AI crawler visits, last 7 days',
        'GPTBot — Visits: 1,234 · Share: 12.5 %',
        'ClaudeBot — Visits: 987 · Share: 9 %',
        'PerplexityBot — Visits: — · Share: 0 %',
      ].join('\n'),
    );
  });

  it('shows a missing figure as "—" and keeps the column numeric', () => {
    const { block } = crawlerTable();
    expect(block!.rows[3]![1]).toEqual({ type: 'raw_number', value: 0, text: '—' });
  });

  it('keeps text from the service as data: escaped, never a mention or a link', () => {
    const { block, text } = dataTable({
      caption: mrkdwn`Pages`,
      header: [mrkdwn`Page`, mrkdwn`Title`],
      rows: [[e('<!channel>'), e('AT&T <https://evil.example|click>')]],
    });
    expect(texts(block!.rows[1]!)).toEqual([
      '&lt;!channel&gt;',
      'AT&amp;T &lt;https://evil.example|click&gt;',
    ]);
    expect(text).not.toMatch(/<[!@#h]/);
  });

  it('refuses raw strings at compile time', () => {
    // @ts-expect-error: a cell must be Mrkdwn (escaped), not a raw string
    const bad: TableCell = 'raw <!here>';
    expect(bad).toBeDefined();
  });

  it('gives every row the header’s length: short rows padded with "—", long rows cut', () => {
    const { block } = dataTable({
      caption: mrkdwn`Markets`,
      header: [mrkdwn`Country`, mrkdwn`Name`, mrkdwn`Primary`],
      rows: [[e('FR')], [e('DE'), e('Germany'), e('no'), e('extra')], [e(''), e('Blank')]],
    });
    expect(block!.rows.map((r) => r.length)).toEqual([3, 3, 3, 3]);
    expect(texts(block!.rows[1]!)).toEqual(['FR', '—', '—']);
    expect(texts(block!.rows[2]!)).toEqual(['DE', 'Germany', 'no']);
    // Slack refuses an empty cell (minLength 1).
    expect(texts(block!.rows[3]!)).toEqual(['—', 'Blank', '—']);
  });

  it('shows at most 100 rows and says how many more there were', () => {
    const rows = Array.from({ length: 150 }, (_, i) => [e(`Page ${i + 1}`), { number: i }] as TableCell[]);
    const { block, text, omitted } = dataTable({
      caption: mrkdwn`Pages`,
      header: [mrkdwn`Page`, mrkdwn`Visits`],
      rows,
    });
    expect(block!.rows).toHaveLength(101);
    expect(omitted).toBe(50);
    expect(text.split('\n').at(-1)).toBe('…and 50 more not shown');
    expect(text.split('\n')).toHaveLength(102);
  });

  it('stays within 10,000 characters across all cells, whatever the rows hold', () => {
    const long = e('x'.repeat(2000));
    const rows = Array.from({ length: 100 }, (_, i) => [e(`Row ${i}`), long, long] as TableCell[]);
    const { block, omitted } = dataTable({
      caption: mrkdwn`Long`,
      header: [mrkdwn`Name`, mrkdwn`A`, mrkdwn`B`],
      rows,
    });
    expect(cellChars(block!.rows)).toBeLessThanOrEqual(10_000);
    expect(omitted).toBe(100 - (block!.rows.length - 1));
    expect(omitted).toBeGreaterThan(0);
    // One cell is cut to a readable length, visibly.
    expect(shown(block!.rows[1]![1]!).endsWith('…')).toBe(true);
  });

  it('keeps at most 20 columns', () => {
    const header = Array.from({ length: 25 }, (_, i) => e(`C${i}`));
    const { block } = dataTable({
      caption: mrkdwn`Wide`,
      header,
      rows: [header.map((h) => h as TableCell)],
    });
    expect(block!.rows.every((r) => r.length === 20)).toBe(true);
  });

  it('has no block without a row (Slack needs one besides the header), only the caption', () => {
    const { block, text, omitted } = crawlerTable([]);
    expect(block).toBeUndefined();
    expect(text).toBe('AI crawler visits, last 7 days');
    expect(omitted).toBe(0);
  });

  it('clamps the page size to 1–100 and names the row header column when it is not the first', () => {
    const base = { caption: mrkdwn`T`, header: [mrkdwn`Visits`, mrkdwn`Crawler`] };
    const rows: TableCell[][] = [[{ number: 3 }, e('GPTBot')]];
    expect(dataTable({ ...base, rows, pageSize: 500 }).block!.page_size).toBe(100);
    expect(dataTable({ ...base, rows, pageSize: 0 }).block!.page_size).toBe(1);
    const named = dataTable({ ...base, rows, rowHeaderColumn: 1, blockId: 'crawlers' });
    expect(named.block).toMatchObject({ row_header_column_index: 1, block_id: 'crawlers' });
    expect(named.text.split('\n')[1]).toBe('GPTBot — Visits: 3');
    expect(dataTable({ ...base, rows }).block).not.toHaveProperty('row_header_column_index');
  });

  it('writes a one-column table as its names', () => {
    const { text } = dataTable({ caption: mrkdwn`Aliases`, header: [mrkdwn`Alias`], rows: [[e('Acme')]] });
    expect(text).toBe('Aliases\nAcme');
  });

  it('takes any escaped text as a number cell’s words', () => {
    const cell: TableCell = { number: 0.5, text: mrkdwn`half` as Mrkdwn };
    const { block } = dataTable({ caption: mrkdwn`T`, header: [mrkdwn`N`], rows: [[cell]] });
    expect(block!.rows[1]).toEqual([{ type: 'raw_number', value: 0.5, text: 'half' }]);
  });
});
