/**
 * Market, location and alias rules (docs/api.md §3, §4.4–4.7).
 */
import { describe, expect, it } from 'vitest';
import { SEED_BRANDS } from '../../../src/dev/simulator/index.js';
import { call, get, sim } from './sim-test-helpers.js';

const acme = SEED_BRANDS.acme.id;
const globex = SEED_BRANDS.globex.id;
const initech = SEED_BRANDS.initech.id;

async function brandWithMarkets(s: Awaited<ReturnType<typeof sim>>, id: string) {
  return (await get(s, '/get-brands', { brand_id: id, include: 'markets,aliases' })).body.brands[0];
}

describe('markets', () => {
  it('the first market of a brand in global mode becomes its primary market and location', async () => {
    const s = await sim();
    const res = await call(s, 'POST', '/get-brands/markets', { body: { brand_id: globex, location: 'DE' } });
    expect(res.body).toMatchObject({ location: 'DE', is_primary: true, brand_id: globex });
    const second = await call(s, 'POST', '/get-brands/markets', {
      body: { brand_id: globex, location: 'UK' },
    });
    expect(second.body).toMatchObject({ location: 'GB', is_primary: false });
    const brand = await brandWithMarkets(s, globex);
    expect(brand.location).toBe('DE');
    expect(brand.markets.map((m: { location: string }) => m.location)).toEqual(['DE', 'GB']);
  });

  it('a removed secondary market is gone from the brand', async () => {
    const s = await sim();
    const before = await brandWithMarkets(s, acme);
    const secondary = before.markets.find((m: { is_primary: boolean }) => !m.is_primary);
    const res = await call(s, 'DELETE', '/get-brands/markets', {
      query: { brand_id: acme, market_id: secondary.id },
    });
    expect(res.body).toMatchObject({ success: true, deleted_market_id: secondary.id });
    const after = await brandWithMarkets(s, acme);
    expect(after.markets).toHaveLength(before.markets.length - 1);
    expect(after.markets.some((m: { id: string }) => m.id === secondary.id)).toBe(false);
  });
});

describe('location', () => {
  it.each([
    ['GB', 'GB'],
    ['UK', 'GB'],
    ['uk', 'GB'],
    ['Germany', 'DE'],
    ['united states', 'US'],
    // The same countries as the bot (src/countries.ts), not a shorter list of its own.
    ['Bolivia', 'BO'],
    ['Federal Republic of Germany', 'DE'],
  ])('country %s is stored as %s, reusing the primary market', async (country, iso) => {
    const s = await sim();
    const before = await brandWithMarkets(s, initech);
    const primaryId = before.markets.find((m: { is_primary: boolean }) => m.is_primary).id;
    const res = await call(s, 'PUT', '/get-brands/location', {
      body: { brand_id: initech, country, location_city: 'Somewhere', location_provider_code: 2826 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      brand_id: initech,
      location: iso,
      location_city: 'Somewhere',
      location_region: null,
      location_provider_code: 2826,
      primary_market: { id: primaryId, location: iso, is_primary: true },
    });
    const after = await brandWithMarkets(s, initech);
    expect(after.location).toBe(iso);
    expect(after.markets).toHaveLength(before.markets.length);
  });

  it('an unknown country is 400 and changes nothing', async () => {
    const s = await sim();
    const res = await call(s, 'PUT', '/get-brands/location', {
      body: { brand_id: acme, country: 'Atlantis' },
    });
    expect(res.status).toBe(400);
    expect((await brandWithMarkets(s, acme)).location).toBe('US');
  });

  it('moving the primary market onto a secondary market folds the two together', async () => {
    const s = await sim();
    const before = await brandWithMarkets(s, acme);
    await call(s, 'PUT', '/get-brands/location', { body: { brand_id: acme, country: 'United Kingdom' } });
    const after = await brandWithMarkets(s, acme);
    const locations = after.markets.map((m: { location: string }) => m.location);
    expect(locations.filter((l: string) => l === 'GB')).toHaveLength(1);
    expect(after.markets).toHaveLength(before.markets.length - 1);
    expect(after.markets.find((m: { is_primary: boolean }) => m.is_primary).location).toBe('GB');
  });

  it('a brand in global mode gets a primary market from its first location', async () => {
    const s = await sim();
    const res = await call(s, 'PUT', '/get-brands/location', {
      body: { brand_id: globex, country: 'France' },
    });
    expect(res.body.primary_market).toMatchObject({ location: 'FR', is_primary: true });
    expect((await brandWithMarkets(s, globex)).markets).toHaveLength(1);
  });
});

describe('aliases', () => {
  it('replace the list and drop case-insensitive duplicates, keeping the first spelling', async () => {
    const s = await sim();
    const res = await call(s, 'PUT', '/get-brands/aliases', {
      body: { brand_id: acme, aliases: ['AcmeHQ', 'acmehq', ' Acme ', 'ACME', 'Acme Analytics Inc.', ''] },
    });
    expect(res.body).toEqual({
      success: true,
      brand_id: acme,
      aliases: ['AcmeHQ', 'Acme', 'Acme Analytics Inc.'],
    });
    expect((await brandWithMarkets(s, acme)).aliases).toEqual(['AcmeHQ', 'Acme', 'Acme Analytics Inc.']);
  });

  it('must be an array of strings', async () => {
    const s = await sim();
    expect(
      (await call(s, 'PUT', '/get-brands/aliases', { body: { brand_id: acme, aliases: 'Acme' } })).status,
    ).toBe(400);
    expect(
      (await call(s, 'PUT', '/get-brands/aliases', { body: { brand_id: acme, aliases: [1] } })).status,
    ).toBe(400);
  });
});

describe('brand-name ambiguity', () => {
  it('two brands share the "Acme" prefix', async () => {
    const s = await sim();
    const names = (await get(s, '/get-brands')).body.brands.map((b: { name: string }) => b.name);
    expect(names.filter((n: string) => n.startsWith('Acme'))).toEqual(['Acme Analytics', 'Acme Labs']);
  });
});
