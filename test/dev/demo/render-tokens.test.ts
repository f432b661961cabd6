/** Blocks as the console shows them, with the names and zone of the local workspace. */
import { describe, expect, it } from 'vitest';
import { localSlackTokens } from '../../../src/dev/demo/local-slack-tokens.js';
import { renderBlocks } from '../../../src/dev/demo/render/render-blocks.js';
import { createStyle } from '../../../src/terminal/style.js';

const plain = createStyle(false);
const NOW = Date.parse('2023-11-14T20:00:00Z');
const users: Record<string, { name: string; tz: string }> = {
  U0READER: { name: 'reader', tz: 'America/New_York' },
  U0ALICE: { name: 'alice', tz: 'UTC' },
};
const channels: Record<string, string> = { C0GEN: 'general', D0ALICE: 'U0ALICE' };
const tokens = localSlackTokens(
  { userInfo: (id) => users[id], channelName: (id) => channels[id] },
  'U0READER',
  () => NOW,
);

describe('rendering with the workspace’s names and the reader’s zone', () => {
  it('reads mrkdwn sections, context and confirm dialogs', () => {
    const { lines, clickables } = renderBlocks(
      [
        {
          type: 'section',
          text: {
            type: 'mrkdwn',
            text: '<@U0ALICE> snoozed alerts in <#C0GEN> until <!date^1700000000^{date_short_pretty} at {time}|2023-11-14T22:13:20Z>',
          },
        },
        { type: 'context', elements: [{ type: 'mrkdwn', text: 'Shared by <@U0READER>' }] },
        {
          type: 'actions',
          elements: [
            {
              type: 'button',
              action_id: 'vis:unmute',
              text: { type: 'plain_text', text: 'Unmute' },
              confirm: {
                title: { type: 'plain_text', text: 'Unmute?' },
                text: { type: 'mrkdwn', text: 'Muted by <@U0ALICE> in <#D0ALICE>.' },
                confirm: { type: 'plain_text', text: 'Unmute' },
                deny: { type: 'plain_text', text: 'Keep' },
              },
            },
          ],
        },
      ],
      { style: plain, tokens },
    );
    // 22:13 UTC is 5:13 PM in New York, the reader's today.
    expect(lines[0]).toBe('@alice snoozed alerts in #general until Today at 5:13 PM');
    expect(lines[1]).toBe('Shared by @reader');
    // A DM has no channel name of its own to show.
    expect(clickables[0]?.confirm?.text).toBe('Muted by @alice in #D0ALICE.');
  });

  it('reads rich text user, channel and date elements', () => {
    const { lines } = renderBlocks(
      [
        {
          type: 'rich_text',
          elements: [
            {
              type: 'rich_text_section',
              elements: [
                { type: 'user', user_id: 'U0ALICE' },
                { type: 'text', text: ' posted in ' },
                { type: 'channel', channel_id: 'C0GEN' },
                { type: 'text', text: ' on ' },
                { type: 'date', timestamp: 1_700_000_000, format: '{date_long}', fallback: 'Nov 14' },
                { type: 'text', text: ', ' },
                { type: 'date', timestamp: 1_700_000_000, format: '{bogus}', fallback: 'some day' },
              ],
            },
          ],
        },
      ],
      { style: plain, tokens },
    );
    expect(lines).toEqual(['@alice posted in #general on Tuesday, November 14th, 2023, some day']);
  });
});
