import { describe, expect, it } from 'vitest';
import {
  COUNTRIES,
  countryLabel,
  didYouMeanCountry,
  resolveCountry,
  suggestCountries,
} from '../../src/slack/countries.js';

describe('resolveCountry', () => {
  it.each([
    ['DE', 'DE'],
    ['de', 'DE'],
    ['UK', 'GB'],
    ['uk', 'GB'],
    ['GB', 'GB'],
    ['USA', 'US'],
    ['United States', 'US'],
    ['united kingdom', 'GB'],
    ['The Netherlands', 'NL'],
    ['Germany', 'DE'],
    ["cote d'ivoire", 'CI'],
    ['Côte d’Ivoire', 'CI'],
    ['Turkey', 'TR'],
    ['Türkiye', 'TR'],
    ['Korea, Republic of', 'KR'],
    ['South  Korea', 'KR'],
    ['Russian Federation', 'RU'],
  ])('%s → %s', (input, code) => {
    expect(resolveCountry(input)?.code).toBe(code);
  });

  it.each(['', '  ', 'ZZ', 'Germny', 'Atlantis', 'U'])('%s is not a country', (input) => {
    expect(resolveCountry(input)).toBeUndefined();
  });

  it('knows every ISO 3166-1 alpha-2 country once', () => {
    expect(COUNTRIES).toHaveLength(249);
    expect(new Set(COUNTRIES.map((c) => c.code)).size).toBe(249);
    for (const c of COUNTRIES) expect(resolveCountry(c.name)?.code).toBe(c.code);
  });
});

describe('suggestions for a typo', () => {
  it('offers the closest names', () => {
    expect(suggestCountries('Germny')[0]?.code).toBe('DE');
    expect(suggestCountries('Untied Kingdom')[0]?.code).toBe('GB');
    expect(didYouMeanCountry('Frnace')).toContain('*France* (FR)');
  });

  it('says what to type when nothing is close', () => {
    expect(didYouMeanCountry('qqqqqqqqqqqq')).toContain('ISO-2 code');
  });

  it('labels codes with their names', () => {
    expect(countryLabel('de')).toBe('Germany (DE)');
    expect(countryLabel('XX')).toBe('XX');
  });
});
