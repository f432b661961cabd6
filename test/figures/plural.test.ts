import { describe, expect, it } from 'vitest';
import {
  agree,
  counted,
  nameList,
  namesWithVerb,
  nounFor,
  pluralOf,
  possessive,
} from '../../src/figures/plural.js';

describe('plurals and possessives', () => {
  it('writes possessives the way a reader expects', () => {
    expect(possessive('Northwind Outfitters')).toBe("Northwind Outfitters'");
    expect(possessive('Acme Analytics')).toBe("Acme Analytics'");
    expect(possessive('Pendo')).toBe("Pendo's");
    expect(possessive('ACME LABS')).toBe("ACME LABS'");
    expect(possessive('Globex')).toBe("Globex's");
    expect(possessive('')).toBe('');
  });

  it('makes the verb agree with one or several names', () => {
    expect(namesWithVerb(['Pendo'], 'appears', 'appear')).toBe('Pendo appears');
    expect(namesWithVerb(['Pendo', 'Rippling'], 'appears', 'appear')).toBe('Pendo and Rippling appear');
    expect(nameList(['Pendo', 'Rippling', 'Gusto'])).toBe('Pendo, Rippling and Gusto');
    expect(agree(0, 'is', 'are')).toBe('are');
  });

  it('forms plurals of the nouns the messages count', () => {
    expect(pluralOf('gap')).toBe('gaps');
    expect(pluralOf('query')).toBe('queries');
    expect(pluralOf('day')).toBe('days');
    expect(pluralOf('appearance')).toBe('appearances');
    expect(pluralOf('cited page')).toBe('cited pages');
    expect(pluralOf('search')).toBe('searches');
    expect(pluralOf('recovery')).toBe('recoveries');
    expect(pluralOf('series')).toBe('series');
    expect(pluralOf('person')).toBe('people');
  });

  it('counts nouns, one without an s', () => {
    expect(counted(1, 'alert')).toBe('1 alert');
    expect(counted(1200, 'alert')).toBe('1,200 alerts');
    expect(counted(1, 'query')).toBe('1 query');
    expect(counted(2, 'query')).toBe('2 queries');
    expect(counted(0, 'gap')).toBe('0 gaps');
    expect(counted(2, 'recovery', 'recoveries')).toBe('2 recoveries');
    expect(nounFor(1, 'competitor')).toBe('competitor');
    expect(nounFor(3, 'competitor')).toBe('competitors');
  });
});
