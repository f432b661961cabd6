import { describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_SETTINGS } from '../../../src/alerts/alert-settings.js';
import { detectCitations } from '../../../src/alerts/detect-citations.js';
import { groupAlerts } from '../../../src/alerts/group-alerts.js';
import { renderBlocks, renderMessage } from '../../../src/dev/demo/render/render-blocks.js';
import { buildAlertMessage } from '../../../src/messages/alert-message.js';
import { mrkdwnToTerminal } from '../../../src/terminal/mrkdwn-to-terminal.js';
import { createStyle, stripAnsi } from '../../../src/terminal/style.js';
import { ev, feed, T0 } from '../../alerts/fixtures.js';

const plain = createStyle(false);
const color = createStyle(true);
const mrkdwn = (text: string) => ({ type: 'mrkdwn', text });
const ptext = (text: string) => ({ type: 'plain_text', text });
const button = (label: string, actionId: string, extra: Record<string, unknown> = {}) => ({
  type: 'button',
  text: ptext(label),
  action_id: actionId,
  ...extra,
});

describe('mrkdwnToTerminal', () => {
  it('turns Slack mrkdwn into plain, readable text without colour', () => {
    const out = mrkdwnToTerminal(
      '*Acme* is _up_ ~down~ `code` <https://acme.io/|acme.io> :warning: &lt;b&gt; &amp; <#C1|general> <@U1> <!here> <!date^1700000000^{date}|Nov 14>',
      plain,
    );
    expect(out).toBe('Acme is up ~down~ `code` acme.io (https://acme.io/) ⚠️ <b> & #general @U1 @here Nov 14');
  });

  it('styles with ANSI when colour is on', () => {
    const out = mrkdwnToTerminal('*bold* _italic_ ~gone~ `x`', color);
    expect(out).toContain('\x1b[1mbold\x1b[22m');
    expect(out).toContain('\x1b[3mitalic\x1b[23m');
    expect(out).toContain('\x1b[9mgone\x1b[29m');
    expect(out).toContain('\x1b[36mx\x1b[39m');
    expect(stripAnsi(out)).toBe('bold italic gone x');
  });

  it('leaves identifiers, times and unknown emoji alone, and formatting inside code', () => {
    expect(mrkdwnToTerminal('block_id.action_id at 10:30:45 :no_such_emoji:', plain)).toBe(
      'block_id.action_id at 10:30:45 :no_such_emoji:',
    );
    expect(mrkdwnToTerminal('`*not bold*` and ```\n*pre*\n```', plain)).toBe('`*not bold*` and     *pre*');
    expect(mrkdwnToTerminal('*<https://a.b|bold link>*', color)).toContain('\x1b[1m');
  });

  it('on a colour terminal, shows a labelled link once, as a hyperlink to its URL', () => {
    const row = mrkdwnToTerminal('• *GPTBot* <https://www.acme.com/pricing|/pricing> — visits 3', color);
    expect(row).toContain('\x1b]8;;https://www.acme.com/pricing\x1b\\');
    expect(stripAnsi(row)).toBe('• GPTBot /pricing — visits 3');
    // Plain output cannot carry a link: it spells the address out.
    expect(mrkdwnToTerminal('<https://www.acme.com/pricing|/pricing>', plain)).toBe(
      '/pricing (https://www.acme.com/pricing)',
    );
    // A URL with a control character cannot be a hyperlink (it would end the sequence): label only.
    expect(stripAnsi(color.link('x', 'https://a.b/\x07'))).toBe('x');
  });

  it('shows a link whose label is the URL once', () => {
    expect(mrkdwnToTerminal('<https://a.b/>', plain)).toBe('https://a.b/');
    expect(mrkdwnToTerminal('<https://a.b/|https://a.b/>', plain)).toBe('https://a.b/');
  });
});

describe('renderBlocks', () => {
  const blocks = [
    { type: 'header', text: ptext('Brands (2)') },
    { type: 'section', text: mrkdwn('*Acme Analytics*  ·  owner\n<https://acme.io/|acme.io>') },
    {
      type: 'section',
      fields: [mrkdwn('*Visits*'), mrkdwn('1,204'), mrkdwn('*Change vs before*'), mrkdwn('-42.5 %')],
    },
    {
      type: 'actions',
      block_id: 'brand:1',
      elements: [
        button('Details', 'vis:open:brand', { value: '{"brandId":"1"}' }),
        button('Remove', 'vis:remove', {
          style: 'danger',
          confirm: {
            title: ptext('Remove it?'),
            text: mrkdwn('Remove *Acme*?'),
            confirm: ptext('Remove'),
            deny: ptext('Keep'),
          },
        }),
      ],
    },
    { type: 'divider' },
    {
      type: 'context',
      elements: [mrkdwn('Updated _today_'), { type: 'image', image_url: 'x', alt_text: 'logo' }],
    },
    { type: 'image', image_url: 'https://x/chart.png', alt_text: 'visits chart' },
    {
      type: 'section',
      block_id: 'pick',
      text: mrkdwn('Period'),
      accessory: {
        type: 'overflow',
        action_id: 'vis:period',
        options: [
          { text: ptext('7 days'), value: '7' },
          { text: ptext('30 days'), value: '30' },
        ],
      },
    },
  ];

  it('renders headers, text, links, columns, context, dividers and images', () => {
    const { lines } = renderBlocks(blocks, { style: plain });
    const text = lines.join('\n');
    expect(text).toContain('=== Brands (2) ===');
    expect(text).toContain('Acme Analytics  ·  owner');
    expect(text).toContain('acme.io (https://acme.io/)');
    expect(text).toContain('─'.repeat(40));
    expect(text).toContain('Updated today  [image: logo]');
    expect(text).toContain('[image: visits chart]');
    // Two columns: the right column starts at the same place on every row.
    const visits = lines.find((l) => l.startsWith('Visits'))!;
    const change = lines.find((l) => l.startsWith('Change vs before'))!;
    expect(visits.indexOf('1,204')).toBe(change.indexOf('-42.5 %'));
  });

  it('numbers buttons and options, and keeps what a click needs', () => {
    const { lines, clickables } = renderBlocks(blocks, { style: plain });
    const text = lines.join('\n');
    expect(text).toContain('[1] Details  [2] Remove (asks to confirm)');
    expect(text).toContain('⋯: [3] 7 days  [4] 30 days');
    expect(clickables.map((c) => c.label)).toEqual(['Details', 'Remove', '⋯ ▸ 7 days', '⋯ ▸ 30 days']);
    expect(clickables[0]).toMatchObject({
      actionId: 'vis:open:brand',
      blockId: 'brand:1',
      value: '{"brandId":"1"}',
    });
    expect(clickables[1]?.confirm).toEqual({
      title: 'Remove it?',
      text: 'Remove Acme?',
      confirm: 'Remove',
      deny: 'Keep',
    });
    expect(clickables[3]).toMatchObject({ actionId: 'vis:period', blockId: 'pick', selectedOption: '30' });
  });

  it('numbers from firstNumber', () => {
    const { lines } = renderBlocks([{ type: 'actions', elements: [button('A', 'a'), button('B', 'b')] }], {
      style: plain,
      firstNumber: 7,
    });
    expect(lines).toEqual(['[7] A  [8] B']);
  });

  it('is deterministic and has no ANSI without colour; has it with colour', () => {
    const a = renderBlocks(blocks, { style: plain }).lines.join('\n');
    expect(renderBlocks(blocks, { style: plain }).lines.join('\n')).toBe(a);
    expect(a).not.toContain('\x1b[');
    const colored = renderBlocks(blocks, { style: color }).lines.join('\n');
    expect(colored).toContain('\x1b[1m');
    expect(stripAnsi(colored)).toContain('[1] Details');
  });

  it('shows unknown blocks for what they are, and falls back to the text of a message', () => {
    expect(renderBlocks([{ type: 'carousel' }], { style: plain }).lines).toEqual(['[carousel block]']);
    expect(renderMessage({ text: '*Hi* there', blocks: [] }, { style: plain }).lines).toEqual(['Hi there']);
  });

  it('renders rich text lists and quotes', () => {
    const rich = {
      type: 'rich_text',
      elements: [
        { type: 'rich_text_section', elements: [{ type: 'text', text: 'Top', style: { bold: true } }] },
        {
          type: 'rich_text_list',
          style: 'ordered',
          elements: [
            { type: 'rich_text_section', elements: [{ type: 'text', text: 'one' }] },
            { type: 'rich_text_section', elements: [{ type: 'link', url: 'https://x.y', text: 'two' }] },
          ],
        },
        { type: 'rich_text_quote', elements: [{ type: 'text', text: 'said' }] },
      ],
    };
    expect(renderBlocks([rich], { style: plain }).lines).toEqual([
      'Top',
      '1. one',
      '2. two (https://x.y)',
      '│ said',
    ]);
  });
});

describe('escaped text reads as typed', () => {
  it('shows a hostile page title and brand name decoded, in mrkdwn and plain_text alike', () => {
    const title = 'Best <tools> & <!channel> <https://phish.example|Your dashboard>';
    const [group] = groupAlerts(
      detectCitations(
        new Map(),
        feed([ev('lost', 'https://blog.example.com/best', '2025-03-01T00:00:00Z', { h1: title })]),
        DEFAULT_ALERT_SETTINGS,
        T0,
      ).alerts,
    );
    const message = buildAlertMessage({ ...group!, brandName: 'R&D <Labs>' });
    const out = renderMessage(message, { style: plain }).lines.join('\n');
    // The header is plain_text: decoded once, not shown as &lt;…&gt; or &amp;lt;.
    expect(out).toContain(
      'R&D <Labs>: Cited page lost: Best <tools> & <!channel> <https://phish.example|Your dashboard>',
    );
    expect(out).not.toMatch(/&(amp|lt|gt);/);
    // The notification text reads the same way in a client without blocks.
    expect(renderMessage({ text: message.text }, { style: plain }).lines.join('\n')).toContain(
      'Best <tools> & <!channel> <https://phish.example|Your dashboard>',
    );
  });
});
