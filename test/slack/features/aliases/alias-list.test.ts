import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  aliasDiff,
  aliasKey,
  dedupeAliases,
  splitAliases,
} from '../../../../src/slack/features/aliases/alias-list.js';

describe('alias lists', () => {
  it('splits on newlines and commas, dropping blanks', () => {
    expect(splitAliases('Acme\nAcme Insights, acme\n\n  AcmeHQ  ,')).toEqual([
      'Acme',
      'Acme Insights',
      'acme',
      'AcmeHQ',
    ]);
  });

  it('keeps commas inside a quoted name; a quote only opens at the start of a name', () => {
    expect(splitAliases('Initech, "Initech, Inc.", 🚀Rocket')).toEqual([
      'Initech',
      'Initech, Inc.',
      '🚀Rocket',
    ]);
    expect(splitAliases("“Smith, Jones & Co”\nJoe's Diner, 'A, B'")).toEqual([
      'Smith, Jones & Co',
      "Joe's Diner",
      'A, B',
    ]);
    // An unclosed quote is just a character.
    expect(splitAliases('"Acme, Inc')).toEqual(['"Acme', 'Inc']);
  });

  it('dedupes case-insensitively, keeping the first spelling and tidying spaces', () => {
    expect(dedupeAliases(['Acme  Inc', 'ACME INC', ' acme inc ', 'Ａｃｍｅ Inc', 'Other'])).toEqual([
      'Acme Inc',
      'Other',
    ]);
  });

  it('never returns two aliases with the same key, and keeps every key', () => {
    fc.assert(
      fc.property(fc.array(fc.string()), (xs) => {
        const out = dedupeAliases(xs);
        const keys = out.map(aliasKey);
        expect(new Set(keys).size).toBe(keys.length);
        expect(new Set(keys)).toEqual(new Set(xs.map(aliasKey).filter((k) => k !== '')));
      }),
    );
  });

  it('diffs by key', () => {
    expect(aliasDiff(['Acme', 'AcmeHQ'], ['acme', 'Acme Insights'])).toEqual({
      added: ['Acme Insights'],
      removed: ['AcmeHQ'],
    });
  });
});
