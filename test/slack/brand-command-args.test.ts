import { describe, expect, it } from 'vitest';
import { brandAndVerb } from '../../src/slack/commands/brand-and-verb.js';
import { parseProviderCode } from '../../src/slack/features/location/parse-provider-code.js';
import { splitCountryAndName } from '../../src/slack/features/markets/markets.js';

const VERBS = new Set(['add', 'remove']);

describe('brandAndVerb', () => {
  it.each([
    [['Acme Analytics', 'add', 'DE'], { brandToken: 'Acme Analytics', verb: 'add', rest: ['DE'] }],
    [
      ['Acme', 'Analytics', 'ADD', 'DE', 'x'],
      { brandToken: 'Acme Analytics', verb: 'add', rest: ['DE', 'x'] },
    ],
    [['add', 'DE'], { brandToken: undefined, verb: 'add', rest: ['DE'] }],
    [['Acme', 'Analytics'], { brandToken: 'Acme Analytics', verb: undefined, rest: [] }],
    [[], { brandToken: undefined, verb: undefined, rest: [] }],
  ])('%j', (positional, expected) => {
    expect(brandAndVerb(positional, VERBS)).toEqual(expected);
  });
});

describe('splitCountryAndName', () => {
  it.each([
    [['DE', 'Germany'], { code: 'DE', name: 'Germany' }],
    [['United', 'Kingdom'], { code: 'GB', name: '' }],
    [['United', 'Arab', 'Emirates', 'Gulf', 'launch'], { code: 'AE', name: 'Gulf launch' }],
    [['uk', 'London', 'office'], { code: 'GB', name: 'London office' }],
  ])('%j', (words, expected) => {
    expect(splitCountryAndName(words)).toEqual(expected);
  });

  it('is undefined when no leading words name a country', () => {
    expect(splitCountryAndName(['Germny'])).toBeUndefined();
  });
});

describe('parseProviderCode', () => {
  it.each([
    ['1023191', 1023191],
    [' 7 ', 7],
    ['0', undefined],
    ['-5', undefined],
    ['1.5', undefined],
    ['1e3', undefined],
    ['abc', undefined],
    ['99999999999999999999', undefined],
  ])('%s → %s', (raw, expected) => {
    expect(parseProviderCode(raw)).toBe(expected);
  });
});
