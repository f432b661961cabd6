/** How the read commands read their words and flags, before anything is sent. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Mrkdwn } from '../../../src/messages/mrkdwn.js';
import { UserError } from '../../../src/messages/user-error.js';
import { commandText } from '../../../src/slack/commands/args/command-text.js';
import { flagReader } from '../../../src/slack/commands/args/flag-reader.js';
import { parseTags } from '../../../src/slack/features/citations/citations-list.js';
import { normaliseDomain } from '../../../src/slack/features/citations/citations-sources.js';
import { parseCrawlerArgs } from '../../../src/slack/features/crawler/crawler-args.js';
import { parseRange } from '../../../src/slack/features/crawler/crawler-range.js';
import { parseSubmitUrls } from '../../../src/slack/features/crawler/crawler-submit.js';

const fail = (m: Mrkdwn) => new UserError('bad_arguments', m);

describe('crawler words', () => {
  it('takes the brand before the first verb or range, in any order after it', () => {
    expect(parseCrawlerArgs(['Acme', 'Analytics', 'live', '7d'])).toEqual({
      brandToken: 'Acme Analytics',
      brandWords: ['Acme', 'Analytics'],
      verb: 'live',
      range: { rangePreset: '7d' },
      operands: [],
    });
    expect(parseCrawlerArgs(['Acme Analytics', '2025-01-01..2025-01-31', 'pages'])).toMatchObject({
      verb: 'pages',
      range: { rangePreset: 'custom', startDate: '2025-01-01', endDate: '2025-01-31' },
    });
    expect(parseCrawlerArgs(['7d'])).toEqual({
      brandToken: undefined,
      brandWords: [],
      verb: 'overview',
      range: { rangePreset: '7d' },
      operands: [],
    });
    expect(parseCrawlerArgs(['3M'])).toMatchObject({ brandToken: '3M', verb: 'overview' });
    expect(parseCrawlerArgs(['Acme', 'submit', 'https://a.example/x', '7d'])).toMatchObject({
      verb: 'submit',
      operands: ['https://a.example/x', '7d'],
    });
  });

  it('refuses a range that is not one, never taking it as part of the brand', () => {
    expect(() => parseCrawlerArgs(['Acme', '14d'])).toThrow(/“14d” is not a range/);
    expect(() => parseCrawlerArgs(['Acme', 'live', 'sideways'])).toThrow(/Unexpected “sideways”/);
    expect(parseRange('2025-03-01..2025-02-01')).toEqual({
      ok: false,
      message: 'The range starts (2025-03-01) after it ends (2025-02-01).',
    });
    expect(parseRange('2024-02-29..2024-03-01').ok).toBe(true);
    expect(parseRange('2023-02-29..2023-03-01').ok).toBe(false);
  });

  it('never throws anything but a usage error, whatever the words', () => {
    const word = fc.oneof(
      fc.constantFrom(
        'live',
        'pages',
        'access',
        'ping',
        'submit',
        'preview-fix',
        'submit-status',
        '7d',
        '24h',
        '90d',
        '14d',
        '..',
        '2025-01-01..2025-01-09',
        'constructor',
        'toString',
      ),
      fc.string({ maxLength: 30 }),
    );
    fc.assert(
      fc.property(fc.array(word, { maxLength: 8 }), (words) => {
        try {
          parseCrawlerArgs(words);
        } catch (err) {
          expect(err).toBeInstanceOf(UserError);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('citation words', () => {
  it('keeps the host of a domain however it is pasted', () => {
    expect(normaliseDomain('techcrunch.com')).toBe('techcrunch.com');
    expect(normaliseDomain('https://TechCrunch.com/2025/x?y=1')).toBe('techcrunch.com');
    expect(normaliseDomain('<https://www.g2.com/products|g2>')).toBe('www.g2.com');
    expect(normaliseDomain('techcrunch.com/path')).toBe('techcrunch.com');
    expect(normaliseDomain('not a domain')).toBeUndefined();
    expect(normaliseDomain('localhost')).toBeUndefined();
  });

  it('takes tag ids as comma-separated UUIDs only', () => {
    const id = '0b8e2a4c-1d3f-4a5b-8c7d-9e0f1a2b3c4d';
    expect(parseTags(`${id}, ${id.toUpperCase()}`, fail)).toEqual([id, id.toUpperCase()]);
    expect(parseTags(undefined, fail)).toBeUndefined();
    expect(() => parseTags('news', fail)).toThrow(/“news” is not one/);
  });
});

describe('submit URLs', () => {
  it('accepts absolute http(s) URLs, Slack-wrapped or comma-separated, and names the others', () => {
    expect(
      parseSubmitUrls([
        'https://a.example/x,https://a.example/y',
        '<https://a.example/z|z>',
        'https://a.example/x',
      ]),
    ).toEqual({ urls: ['https://a.example/x', 'https://a.example/y', 'https://a.example/z'], bad: [] });
    expect(parseSubmitUrls(['a.example/x', 'ftp://a.example/']).bad).toEqual([
      'a.example/x',
      'ftp://a.example/',
    ]);
  });
});

describe('flags', () => {
  it('reads numbers within bounds, values and switches, and refuses unknown flags', () => {
    const f = flagReader({ limit: '20', domain: 'x.com', compare: true, share: true }, fail);
    expect(f.int(1, 500, 'limit')).toBe(20);
    expect(f.string('domain')).toBe('x.com');
    expect(f.bool('compare')).toBe(true);
    expect(() => f.rejectUnknown()).not.toThrow();
    expect(() => flagReader({ limit: '0' }, fail).int(1, 200, 'limit')).toThrow(
      '`--limit` takes a whole number from 1 to 200 (got “0”).',
    );
    expect(() => flagReader({ limit: true }, fail).int(1, 200, 'limit')).toThrow('(got no value)');
    expect(() => flagReader({ domain: true }, fail).string('domain')).toThrow('`--domain` needs a value.');
    const typo = flagReader({ domian: 'x' }, fail);
    typo.string('domain');
    expect(() => typo.rejectUnknown()).toThrow('Unknown flag `--domian` here.');
  });

  it('writes re-runnable command text with the brand id', () => {
    expect(
      commandText('citations', 'id-1', ['sources', 'x.com'], {
        limit: 5,
        prompt: 'best crm',
        none: undefined,
      }),
    ).toBe('citations id-1 sources x.com --limit 5 --prompt "best crm"');
  });
});
