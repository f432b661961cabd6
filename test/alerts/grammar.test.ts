import { describe, expect, it } from 'vitest';
import { agree, counted, nameList, namesWithVerb, possessive } from '../../src/alerts/grammar.js';

describe('grammar', () => {
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

  it('counts nouns', () => {
    expect(counted(1, 'alert')).toBe('1 alert');
    expect(counted(1200, 'alert')).toBe('1,200 alerts');
    expect(counted(2, 'recovery', 'recoveries')).toBe('2 recoveries');
  });
});
