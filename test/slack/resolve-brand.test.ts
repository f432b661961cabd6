import { describe, expect, it } from 'vitest';
import type { Brand } from '../../src/api/schemas/index.js';
import { UserError } from '../../src/messages/user-error.js';
import { type BrandAmbiguousError, resolveBrand } from '../../src/slack/commands/resolve-brand.js';

const brand = (id: string, name: string): Brand => ({
  id,
  name,
  active: true,
  role: 'owner',
  location: 'US',
});

const acme = brand('a1c3e5f7-2b4d-4f60-8a1c-3e5f7a9b0c11', 'Acme Analytics');
const acmeLabs = brand('e5a7c9d1-6f8b-4da4-8e5a-7c9d1f3a4b55', 'Acme Labs');
const northwind = brand('b2d4f6a8-3c5e-4a71-9b2d-4f6a8c0d1e22', 'Northwind Outfitters');
const globex = brand('c3e5a7b9-4d6f-4b82-8c3e-5a7b9d1e2f33', 'Globex Corporation');
const brands = [acme, acmeLabs, northwind, globex];

function userError(fn: () => unknown): UserError {
  try {
    fn();
  } catch (err) {
    if (err instanceof UserError) return err;
    throw err;
  }
  throw new Error('expected a UserError');
}

describe('resolveBrand', () => {
  it('finds a brand by UUID, in any case', () => {
    expect(resolveBrand(brands, northwind.id)).toBe(northwind);
    expect(resolveBrand(brands, northwind.id.toUpperCase())).toBe(northwind);
  });

  it('says so when a UUID is not visible to the key', () => {
    const err = userError(() => resolveBrand(brands, '00000000-0000-4000-8000-000000000000'));
    expect(err.code).toBe('brand_unknown');
  });

  it('matches a name case-insensitively, whitespace-tolerant', () => {
    expect(resolveBrand(brands, 'acme analytics')).toBe(acme);
    expect(resolveBrand(brands, '  GLOBEX   corporation ')).toBe(globex);
  });

  it('accepts an unambiguous prefix', () => {
    expect(resolveBrand(brands, 'north')).toBe(northwind);
    expect(resolveBrand(brands, 'acme l')).toBe(acmeLabs);
  });

  it('lets an exact name win over a longer name it prefixes', () => {
    const acmeShort = brand('f0000000-0000-4000-8000-000000000001', 'Acme');
    expect(resolveBrand([...brands, acmeShort], 'acme')).toBe(acmeShort);
  });

  it('asks back on an ambiguous prefix, listing the candidates', () => {
    const err = userError(() => resolveBrand(brands, 'acme'));
    expect(err.code).toBe('brand_ambiguous');
    expect(err.message).toContain('Acme Analytics');
    expect(err.message).toContain('Acme Labs');
    expect(err.message).not.toContain('Northwind');
  });

  it('lists ids when two brands share a name exactly', () => {
    const twin = brand('f0000000-0000-4000-8000-000000000002', 'Acme Labs');
    const err = userError(() => resolveBrand([...brands, twin], 'Acme Labs'));
    expect(err.code).toBe('brand_ambiguous');
    expect(err.message).toContain(acmeLabs.id);
    expect(err.message).toContain(twin.id);
  });

  it('suggests the closest names for an unknown one', () => {
    const err = userError(() => resolveBrand(brands, 'Globx'));
    expect(err.code).toBe('brand_unknown');
    expect(err.message).toContain('Did you mean *Globex Corporation*');
    const far = userError(() => resolveBrand(brands, 'zzzzzz'));
    expect(far.message).toContain('The API key sees');
  });

  it('escapes what the user typed before quoting it back', () => {
    const err = userError(() => resolveBrand(brands, '<!channel>'));
    expect(err.message).toContain('&lt;!channel&gt;');
    expect(err.message).not.toContain('<!channel>');
  });

  it('refuses an empty token', () => {
    expect(userError(() => resolveBrand(brands, '  ')).code).toBe('brand_missing');
  });
});

describe('resolveBrand with aliases', () => {
  const withAliases = (b: Brand, aliases: string[]): Brand => ({ ...b, aliases });
  const acmeA = withAliases(acme, ['Acme', 'AcmeAnalytics']);
  const labsA = withAliases(acmeLabs, ['Acme ML', 'AcmeLabs']);
  const acmeCo = brand('f6b8d0e2-7a9c-4eb5-9f6b-8d0e2a4b5c66', 'Acme');

  it('prefers an exact name, then an exact alias, then a prefix', () => {
    expect(resolveBrand([acmeA, labsA, acmeCo], 'acme')).toBe(acmeCo);
    expect(resolveBrand([acmeA, labsA], 'ACME')).toBe(acmeA);
    expect(resolveBrand([acmeA, labsA], 'acme  ml')).toBe(labsA);
    expect(resolveBrand([acmeA, labsA], 'Acme M')).toBe(labsA);
  });

  it('asks, with the candidates, when an alias or prefix fits several brands', () => {
    const shared = withAliases(northwind, ['Acme']);
    const err = userError(() => resolveBrand([acmeA, labsA, shared], 'acme'));
    expect(err.code).toBe('brand_ambiguous');
    expect((err as BrandAmbiguousError).candidates).toEqual([acmeA, shared]);
    const byPrefix = userError(() => resolveBrand([acmeA, labsA], 'Acm')) as BrandAmbiguousError;
    expect(byPrefix.candidates).toEqual([acmeA, labsA]);
  });
});
