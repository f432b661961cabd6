import { describe, expect, it } from 'vitest';
import { escapeMrkdwn } from '../../../src/messages/mrkdwn.js';
import { cutAtWord } from '../../../src/slack/views/cut-at-word.js';

describe('cutAtWord', () => {
  it('cuts at the last word that fits and drops the punctuation left before the ellipsis', () => {
    expect(cutAtWord('Allow GPTBot to read the pricing pages, then check', 44)).toBe(
      'Allow GPTBot to read the pricing pages…',
    );
    expect(cutAtWord('short', 40)).toBe('short');
  });

  it('keeps the semicolon that ends an escaped entity, so no bare & is left', () => {
    const escaped = escapeMrkdwn(`Preview fix: ${'!'.repeat(20)} & ${'!'.repeat(60)}`);
    const cut = cutAtWord(escaped, 75);
    expect(cut).toBe(`Preview fix: ${'!'.repeat(20)} &amp;…`);
    expect(cut).not.toMatch(/&(?![a-z]+;)/);
  });
});
