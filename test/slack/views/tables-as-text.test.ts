import { describe, expect, it } from 'vitest';
import type { KnownBlock } from '../../../src/messages/block-kit-types.js';
import { escapeMrkdwn, mrkdwn } from '../../../src/messages/mrkdwn.js';
import { nativeTable } from '../../../src/slack/views/table-model.js';
import {
  hasNativeTable,
  tablesAsText,
  tablesText,
  textWithTable,
} from '../../../src/slack/views/tables-as-text.js';

const HOSTILE = 'Pricing <!channel> & <https://phish.example|login>';

const table = nativeTable(
  {
    columns: [{ label: 'Page' }, { label: 'Visits', align: 'right' }, { label: 'Status' }],
    rows: [
      [{ url: 'https://acme.example/pricing', text: HOSTILE }, { number: 1204, text: '1,204' }, 'cited'],
      ['/blog', { number: 7, text: '7' }, 'cold'],
    ],
  },
  { caption: 'AI crawler pages: Rows 1–2 of 2', pageSize: 10 },
);

const header: KnownBlock = { type: 'header', text: { type: 'plain_text', text: mrkdwn`Pages` } };
const more: KnownBlock = {
  type: 'actions',
  elements: [{ type: 'button', action_id: 'more', text: { type: 'plain_text', text: mrkdwn`More` } }],
};

describe('tablesAsText', () => {
  it('replaces only the table, by its caption and a line per row, the rest of the reply unchanged', () => {
    const reply = { text: mrkdwn`Pages for Acme`, blocks: [header, table.block as KnownBlock, more] };
    expect(hasNativeTable(reply.blocks)).toBe(true);
    const out = tablesAsText(reply);
    expect(hasNativeTable(out.blocks)).toBe(false);
    expect(out.text).toBe(reply.text);
    expect(out.blocks[0]).toBe(header);
    expect(out.blocks.at(-1)).toBe(more);
    expect(out.blocks[1]).toEqual({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: [
          '*AI crawler pages: Rows 1–2 of 2*',
          `• <https://acme.example/pricing|${escapeMrkdwn(HOSTILE).replace(/\|/g, '¦')}> — Visits: 1,204 · Status: cited`,
          '• /blog — Visits: 7 · Status: cold',
        ].join('\n'),
      },
    });
    // Hostile text stays escaped: no broadcast, no second link.
    const text = JSON.stringify(out.blocks[1]);
    expect(text).not.toContain('<!channel>');
    expect(text).not.toContain('<https://phish.example');
  });

  it('a reply without a table is left as it is', () => {
    const reply = { text: mrkdwn`Hi`, blocks: [header, more] };
    expect(tablesAsText(reply).blocks).toEqual(reply.blocks);
    expect(tablesText(reply.blocks)).toBeUndefined();
  });

  it('the reply text: the sentence, then the rows, bounded', () => {
    const lines = tablesText([table.block as KnownBlock])!;
    const text = textWithTable(mrkdwn`Pages for Acme.`, lines);
    expect(text.split('\n')[0]).toBe('Pages for Acme.');
    expect(text.split('\n')[1]).toBe('AI crawler pages: Rows 1–2 of 2');
    expect(textWithTable(mrkdwn`x`, escapeMrkdwn('y'.repeat(10_000))).length).toBeLessThanOrEqual(3000);
  });
});
