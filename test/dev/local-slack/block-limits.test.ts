import { describe, expect, it } from 'vitest';
import { validateBlocks } from '../../../src/dev/local-slack/index.js';
import { platformError, useFixture } from './local-slack-fixture.js';

const f = useFixture();

const mrkdwn = (text: string) => ({ type: 'mrkdwn', text });
const plain = (text: string) => ({ type: 'plain_text', text });
const section = (text: string) => ({ type: 'section', text: mrkdwn(text) });
const button = (actionId: string, text = 'Open') => ({
  type: 'button',
  action_id: actionId,
  text: plain(text),
});

async function post(blocks: unknown[]) {
  return platformError(
    f.client.apiCall('chat.postMessage', { channel: f.slack.defaultChannelId, text: 'fallback', blocks }),
  );
}

/** Each limit: blocks just inside it are accepted, one over is `invalid_blocks` with Slack's hint. */
const LIMITS: Array<{ name: string; ok: unknown[]; over: unknown[]; hint: string }> = [
  {
    name: '50 blocks per message',
    ok: Array.from({ length: 50 }, () => ({ type: 'divider' })),
    over: Array.from({ length: 51 }, () => ({ type: 'divider' })),
    hint: 'no more than 50 items allowed [json-pointer:/blocks]',
  },
  {
    name: 'section text ≤ 3000',
    ok: [section('x'.repeat(3000))],
    over: [section('x'.repeat(3001))],
    hint: 'must be less than 3001 characters [json-pointer:/blocks/0/text/text]',
  },
  {
    name: 'header text ≤ 150',
    ok: [{ type: 'header', text: plain('h'.repeat(150)) }],
    over: [{ type: 'header', text: plain('h'.repeat(151)) }],
    hint: 'must be less than 151 characters [json-pointer:/blocks/0/text/text]',
  },
  {
    name: 'button text ≤ 75',
    ok: [{ type: 'actions', elements: [button('a', 'b'.repeat(75))] }],
    over: [{ type: 'actions', elements: [button('a', 'b'.repeat(76))] }],
    hint: 'must be less than 76 characters [json-pointer:/blocks/0/elements/0/text/text]',
  },
  {
    name: 'action_id ≤ 255',
    ok: [{ type: 'actions', elements: [button('a'.repeat(255))] }],
    over: [{ type: 'actions', elements: [button('a'.repeat(256))] }],
    hint: 'must be less than 256 characters [json-pointer:/blocks/0/elements/0/action_id]',
  },
  {
    name: 'block_id ≤ 255',
    ok: [{ ...section('x'), block_id: 'b'.repeat(255) }],
    over: [{ ...section('x'), block_id: 'b'.repeat(256) }],
    hint: 'must be less than 256 characters [json-pointer:/blocks/0/block_id]',
  },
  {
    name: '25 elements per actions block',
    ok: [{ type: 'actions', elements: Array.from({ length: 25 }, (_, i) => button(`a${i}`)) }],
    over: [{ type: 'actions', elements: Array.from({ length: 26 }, (_, i) => button(`a${i}`)) }],
    hint: 'no more than 25 items allowed [json-pointer:/blocks/0/elements]',
  },
  {
    name: '10 elements per context block',
    ok: [{ type: 'context', elements: Array.from({ length: 10 }, () => mrkdwn('c')) }],
    over: [{ type: 'context', elements: Array.from({ length: 11 }, () => mrkdwn('c')) }],
    hint: 'no more than 10 items allowed [json-pointer:/blocks/0/elements]',
  },
];

describe('chat.postMessage block limits (through WebClient)', () => {
  it.each(LIMITS)('$name', async ({ ok, over, hint }) => {
    expect((await post(ok)).error).toBe('ok');
    const { error, data } = await post(over);
    expect(error).toBe('invalid_blocks');
    expect(data['errors']).toEqual([hint]);
    expect((data['response_metadata'] as { messages: string[] }).messages).toContain(`[ERROR] ${hint}`);
  });

  it('rejects duplicate block_ids and unknown block types', async () => {
    expect(
      (
        await post([
          { ...section('a'), block_id: 'x' },
          { ...section('b'), block_id: 'x' },
        ])
      ).error,
    ).toBe('invalid_blocks');
    expect((await post([{ type: 'carousel' }])).error).toBe('invalid_blocks');
  });

  it('answers invalid_blocks_format when blocks is not an array', async () => {
    expect((await post({ type: 'divider' } as unknown as unknown[])).error).toBe('invalid_blocks_format');
  });

  it('answers msg_blocks_too_long when the blocks carry more than ~13k characters of text', async () => {
    const blocks = Array.from({ length: 5 }, () => section('x'.repeat(2900)));
    expect((await post(blocks)).error).toBe('msg_blocks_too_long');
  });

  it('applies the same checks to chat.update and chat.postEphemeral', async () => {
    const posted = await f.client.chat.postMessage({ channel: f.slack.defaultChannelId, text: 'v1' });
    const over = LIMITS[0]!.over;
    const update = await platformError(
      f.client.apiCall('chat.update', {
        channel: f.slack.defaultChannelId,
        ts: posted.ts,
        text: 'v2',
        blocks: over,
      }),
    );
    expect(update.error).toBe('invalid_blocks');
    const ephemeral = await platformError(
      f.client.apiCall('chat.postEphemeral', {
        channel: f.slack.defaultChannelId,
        user: f.slack.defaultUserId,
        text: 'x',
        blocks: over,
      }),
    );
    expect(ephemeral.error).toBe('invalid_blocks');
  });
});

describe('views allow 100 blocks', () => {
  const home = (n: number) => ({
    type: 'home',
    blocks: Array.from({ length: n }, () => ({ type: 'divider' })),
  });

  it('accepts 100 blocks in a Home view and rejects 101 with invalid_blocks', async () => {
    const user = f.slack.defaultUserId;
    expect(
      (await platformError(f.client.apiCall('views.publish', { user_id: user, view: home(100) }))).error,
    ).toBe('ok');
    const { error, data } = await platformError(
      f.client.apiCall('views.publish', { user_id: user, view: home(101) }),
    );
    expect(error).toBe('invalid_blocks');
    expect(data['errors']).toEqual(['no more than 100 items allowed [json-pointer:/view/blocks]']);
  });
});

describe('validateBlocks', () => {
  it('checks section fields (≤ 10, each ≤ 2000) and select options', () => {
    const fields = Array.from({ length: 11 }, () => mrkdwn('f'));
    expect(validateBlocks([{ type: 'section', fields }], 'message')?.messages).toEqual([
      'no more than 10 items allowed [json-pointer:/blocks/0/fields]',
    ]);
    const select = {
      type: 'static_select',
      action_id: 's',
      options: [{ text: plain('o'.repeat(76)), value: 'v' }],
    };
    expect(validateBlocks([{ type: 'actions', elements: [select] }], 'modal')?.messages).toEqual([
      'must be less than 76 characters [json-pointer:/blocks/0/elements/0/options/0/text/text]',
    ]);
  });

  it('accepts a realistic alert message', () => {
    const blocks = [
      { type: 'header', text: plain('Acme Running: citations lost') },
      section('*3 citations lost* since yesterday'),
      { type: 'context', elements: [mrkdwn('Source: Brand Visibility Service')] },
      {
        type: 'actions',
        block_id: 'alert_actions',
        elements: [
          button('alert_snooze', 'Snooze 24 h'),
          { ...button('alert_open', 'Open'), url: 'https://x.example' },
        ],
      },
    ];
    expect(validateBlocks(blocks, 'message')).toBeUndefined();
  });
});
