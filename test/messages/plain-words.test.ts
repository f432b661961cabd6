import { describe, expect, it } from 'vitest';
import { escapeMrkdwn as e, mrkdwn, mrkdwnLink, slackDate } from '../../src/messages/mrkdwn.js';
import { plainWords } from '../../src/messages/plain-words.js';

describe('plainWords', () => {
  it('drops formatting marks around words and spells out dates and links', () => {
    const text = mrkdwn`The bot cannot change *${e('Acme')}*: run \`/visibility help\`, _now_ or ~later~. Resets ${slackDate(Date.UTC(2026, 11, 1))}. See ${mrkdwnLink('https://acme.io/a', 'the docs')}.`;
    expect(plainWords(text)).toBe(
      'The bot cannot change Acme: run “/visibility help”, now or later. Resets Dec 1, 2026 at 12:00 AM UTC. See the docs (https://acme.io/a).',
    );
  });

  it('leaves marks that are not around words, and keeps data escaped', () => {
    expect(plainWords(mrkdwn`5 * 3 = 15, snake_case_name, ${e('<!channel> & co')}`)).toBe(
      '5 * 3 = 15, snake_case_name, &lt;!channel&gt; &amp; co',
    );
  });
});
