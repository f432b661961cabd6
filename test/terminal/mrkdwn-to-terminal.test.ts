import { describe, expect, it } from 'vitest';
import { mrkdwnToTerminal } from '../../src/terminal/mrkdwn-to-terminal.js';
import { createStyle } from '../../src/terminal/style.js';
import type { TokenContext } from '../../src/terminal/token-context.js';

const plain = createStyle(false);
const NOW = Date.parse('2023-11-14T22:30:00Z');
const tokens: TokenContext = {
  userName: (id) => ({ U0ALICE: 'alice', U0BOB: 'bob.smith' })[id],
  channelName: (id) => ({ C0GEN: 'general', C0MKT: 'marketing' })[id],
  timeZone: 'Europe/Berlin',
  now: () => NOW,
};

describe('mrkdwnToTerminal with Slack tokens', () => {
  it('formats a date token in the reader’s zone, and shows the fallback without one', () => {
    const text = 'Resets <!date^1700000000^{date_short_pretty} at {time}|2023-11-14T22:13:20Z>.';
    // 22:13 UTC is 23:13 in Berlin, the same day as "now".
    expect(mrkdwnToTerminal(text, plain, tokens)).toBe('Resets Today at 11:13 PM.');
    expect(mrkdwnToTerminal(text, plain)).toBe('Resets 2023-11-14T22:13:20Z.');
  });

  it('falls back when the format is not one Slack knows, and keeps an optional link', () => {
    expect(mrkdwnToTerminal('<!date^1700000000^{weird}|sometime>', plain, tokens)).toBe('sometime');
    expect(
      mrkdwnToTerminal('<!date^1700000000^{date_num}^https://status.example/run/1|14 Nov>', plain, tokens),
    ).toBe('2023-11-14 (https://status.example/run/1)');
  });

  it('names users and channels the workspace knows; unknown ones keep their label or id', () => {
    expect(mrkdwnToTerminal('<@U0ALICE> muted alerts in <#C0MKT>.', plain, tokens)).toBe(
      '@alice muted alerts in #marketing.',
    );
    // Formatting characters in a name are not taken for mrkdwn.
    expect(mrkdwnToTerminal('_by <@U0BOB>_', plain, tokens)).toBe('by @bob.smith');
    expect(mrkdwnToTerminal('<@U0GHOST> in <#C0GONE|old-name> and <#C0NONE>', plain, tokens)).toBe(
      '@U0GHOST in #old-name and #C0NONE',
    );
  });

  it('shows special mentions as @here and links as their label with the address', () => {
    expect(mrkdwnToTerminal('<!here> <!channel> <!everyone>', plain, tokens)).toBe(
      '@here @channel @everyone',
    );
    expect(
      mrkdwnToTerminal('See <https://acme.io/pricing?a=1&amp;b=2|the pricing page>', plain, tokens),
    ).toBe('See the pricing page (https://acme.io/pricing?a=1&b=2)');
    expect(mrkdwnToTerminal('<mailto:team@acme.io|team@acme.io>', plain, tokens)).toBe('mailto:team@acme.io');
  });
});
