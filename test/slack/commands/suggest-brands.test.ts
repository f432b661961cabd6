import { describe, expect, it } from 'vitest';
import type { Brand } from '../../../src/api/schemas/index.js';
import { suggestBrands } from '../../../src/slack/commands/suggest-brands.js';
import { brandOption } from '../../../src/slack/views/brand-select.js';

const brand = (id: string, name: string, aliases: string[] = []): Brand => ({
  id,
  name,
  active: true,
  role: 'owner',
  location: 'US',
  aliases,
});

const acme = brand('a1c3e5f7-2b4d-4f60-8a1c-3e5f7a9b0c11', 'Acme Analytics', ['Acme', 'AcmeAnalytics']);
const labs = brand('e5a7c9d1-6f8b-4da4-8e5a-7c9d1f3a4b55', 'Acme Labs', ['Acme ML']);
const globex = brand('c3e5a7b9-4d6f-4b82-8c3e-5a7b9d1e2f33', 'Globex Corporation', ['Globex']);
const mlCo = brand('f1e5a7b9-4d6f-4b82-8c3e-5a7b9d1e2f44', 'ML Works');
const brands = [globex, labs, mlCo, acme];

const names = (query: string, max = 100) => suggestBrands(brands, query, max).map((s) => s.brand.name);

describe('suggestBrands', () => {
  it('lists every brand by name when nothing is typed, up to the cap', () => {
    expect(names('')).toEqual(['Acme Analytics', 'Acme Labs', 'Globex Corporation', 'ML Works']);
    expect(names('', 2)).toEqual(['Acme Analytics', 'Acme Labs']);
  });

  it('ranks an exact name, then an exact alias, then prefixes, then later words', () => {
    expect(names('acme labs')).toEqual(['Acme Labs']);
    // "Acme" is Acme Analytics' alias: it comes before Acme Labs, which only starts with it.
    expect(names('acme')).toEqual(['Acme Analytics', 'Acme Labs']);
    // ML Works starts with "ml"; Acme Labs only has a later word of an alias that does.
    expect(names('ml')).toEqual(['ML Works', 'Acme Labs']);
    expect(names('corp')).toEqual(['Globex Corporation']);
  });

  it('names the alias only when the name itself does not match', () => {
    expect(suggestBrands(brands, 'acme ml', 10)).toEqual([{ brand: labs, alias: 'Acme ML' }]);
    expect(suggestBrands(brands, 'acme', 10).map((s) => s.alias)).toEqual([undefined, undefined]);
  });

  it('folds case, width and spacing like the resolver, and finds a brand by id', () => {
    expect(names('  GLOBEX   corp ')).toEqual(['Globex Corporation']);
    expect(names(globex.id.toUpperCase())).toEqual(['Globex Corporation']);
    expect(names('nothing like it')).toEqual([]);
  });
});

describe('brandOption', () => {
  it('keeps a name as text: no mention, link or broadcast, cut to 75 characters', () => {
    const hostile = brand('0b0b0b0b-0000-4000-8000-000000000000', '<!channel> & <https://evil.example|Acme>');
    expect(brandOption(hostile).text.text).toBe('&lt;!channel&gt; &amp; &lt;https://evil.example|Acme&gt;');
    const long = brandOption(brand(acme.id, 'x'.repeat(200)), 'y');
    expect(long.text.text.length).toBeLessThanOrEqual(75);
    expect(long.value).toBe(acme.id);
  });
});
