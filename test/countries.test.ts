import { describe, expect, it } from 'vitest';
import { COUNTRIES, countryLabel, resolveCountry } from '../src/countries.js';
import { didYouMeanCountry, suggestCountries } from '../src/slack/kit/did-you-mean-country.js';

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
    ['Federal Republic of Germany', 'DE'],
    ['Kingdom of the Netherlands', 'NL'],
    ['Bolivia, Plurinational State of', 'BO'],
    ['Congo, The Democratic Republic of the', 'CD'],
    ['Congo', 'CG'],
    ["Democratic People's Republic of Korea", 'KP'],
    ['Hellenic Republic', 'GR'],
    ['Ivory Coast', 'CI'],
    ['Holland', 'NL'],
  ])('%s → %s', (input, code) => {
    expect(resolveCountry(input)?.code).toBe(code);
  });

  it.each(['', '  ', 'ZZ', 'XK', 'Germny', 'Atlantis', 'U', 'Republic of Atlantis', 'Kingdom of Korea'])(
    '%s is not a country',
    (input) => {
      expect(resolveCountry(input)).toBeUndefined();
    },
  );

  it('knows every ISO 3166-1 alpha-2 country once', () => {
    expect(COUNTRIES).toHaveLength(249);
    expect(new Set(COUNTRIES.map((c) => c.code)).size).toBe(249);
    for (const c of COUNTRIES) expect(resolveCountry(c.name)?.code).toBe(c.code);
  });

  it('shows everyday names, not the formal ones first in the country data', () => {
    const names = new Map(COUNTRIES.map((c) => [c.code, c.name]));
    expect(names.get('US')).toBe('United States');
    expect(names.get('CN')).toBe('China');
    expect(names.get('GB')).toBe('United Kingdom');
    expect(names.get('VA')).toBe('Vatican City');
    expect(names.get('TR')).toBe('Türkiye');
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
