/**
 * Brands, markets, location and aliases (docs/api.md §4.3–4.7, §3 market rules).
 */
import { countryName, isCountryCode, resolveCountry } from '../../../countries.js';
import { invalidParam, typedShape } from '../http-error.js';
import { isUuid, listParam, type RequestInput, requiredString, stringParam } from '../params.js';
import type { BrandState, MarketState } from '../world.js';
import { brandOf, type Handler, ok, requireEditor } from './handler-context.js';

/** The plan's market allowance; docs/api.md leaves the numbers unshown, this one is plausible. */
const MAX_MARKETS = 10;
const MAX_ALIASES = 50;

/** The markets endpoint takes ISO-2 only, plus the alias UK (docs/api.md §4.4). */
function resolveIsoCode(input: string): string | null {
  const key = input.trim().toUpperCase();
  if (key === 'UK') return 'GB';
  return isCountryCode(key) ? key : null;
}
const INCLUDES = ['markets', 'aliases'] as const;

function marketJson(brand: BrandState, m: MarketState) {
  return {
    id: m.id,
    brand_id: brand.profile.id,
    location: m.location,
    is_primary: m.is_primary,
    active: m.active,
    created_at: m.created_at,
    market_name: m.market_name,
  };
}

function brandJson(brand: BrandState, include: ReadonlySet<string>) {
  const p = brand.profile;
  return {
    id: p.id,
    name: p.name,
    website: p.website,
    active: true,
    role: p.role,
    location: brand.location,
    location_region: brand.region,
    location_city: brand.city,
    ...(include.has('markets') ? { markets: brand.markets.map((m) => marketJson(brand, m)) } : {}),
    ...(include.has('aliases') ? { aliases: [...brand.aliases] } : {}),
  };
}

export const getBrands: Handler = (ctx) => {
  const include = new Set(listParam(ctx.input, 'include'));
  for (const value of include) {
    if (!(INCLUDES as readonly string[]).includes(value)) {
      throw invalidParam('include', `must be a comma-separated list of ${INCLUDES.join(', ')}`);
    }
  }
  const filter = stringParam(ctx.input, 'brand_id');
  const brands = filter === undefined ? [...ctx.world.brands.values()] : [brandOf(ctx)];
  return ok({ brands: brands.map((b) => brandJson(b, include)) });
};

export const addMarket: Handler = (ctx) => {
  const brand = brandOf(ctx);
  requireEditor(brand, 'Adding a market');
  const raw = requiredString(ctx.input, 'location');
  const location = resolveIsoCode(raw);
  if (!location) {
    throw typedShape(
      400,
      'invalid_request_error',
      'invalid_location',
      `'${raw}' is not an ISO 3166-1 alpha-2 country code (for example GB or DE).`,
      'location',
    );
  }
  const name = stringParam(ctx.input, 'market_name')?.trim() || null;
  if (brand.markets.some((m) => m.location === location)) {
    throw typedShape(
      409,
      'invalid_request_error',
      'market_exists',
      `Market ${location} already exists`,
      'location',
    );
  }
  if (brand.markets.length >= MAX_MARKETS) {
    throw typedShape(
      403,
      'permission_error',
      'market_limit_reached',
      `Your plan allows ${MAX_MARKETS} markets per brand.`,
      null,
    );
  }
  // docs/api.md §3: the first market added to a brand becomes its primary market.
  const isPrimary = brand.markets.length === 0;
  const market = ctx.world.newMarket(brand, location, isPrimary, name);
  brand.markets.push(market);
  if (isPrimary) brand.location = location;
  return ok(marketJson(brand, market), 201);
};

export const removeMarket: Handler = (ctx) => {
  const brand = brandOf(ctx);
  requireEditor(brand, 'Removing a market');
  const marketId = requiredString(ctx.input, 'market_id');
  if (!isUuid(marketId)) throw invalidParam('market_id', 'must be a UUID');
  const market = brand.markets.find((m) => m.id === marketId.toLowerCase());
  if (!market) {
    throw typedShape(
      404,
      'invalid_request_error',
      'market_not_found',
      `No market ${marketId} on ${brand.profile.name}`,
      'market_id',
    );
  }
  if (market.is_primary) {
    throw typedShape(
      400,
      'invalid_request_error',
      'primary_market',
      `Market ${market.location} is the primary market and cannot be removed. Change the primary market in brand settings first.`,
      'market_id',
    );
  }
  brand.markets = brand.markets.filter((m) => m !== market);
  return ok({
    success: true,
    brand_id: brand.profile.id,
    deleted_market_id: market.id,
    location: market.location,
  });
};

function optionalText(input: RequestInput, name: string): string | null {
  const value = stringParam(input, name)?.trim();
  if (value !== undefined && value.length > 100) throw invalidParam(name, 'must be at most 100 characters');
  return value || null;
}

export const setLocation: Handler = (ctx) => {
  const brand = brandOf(ctx);
  requireEditor(brand, 'Changing the location');
  const raw = requiredString(ctx.input, 'country');
  const location = resolveCountry(raw)?.code;
  if (!location) {
    throw typedShape(
      400,
      'invalid_request_error',
      'invalid_country',
      `Unknown country '${raw}'. Use an ISO-2 code (GB), the alias UK, or a full name (Germany).`,
      'country',
    );
  }
  const providerRaw = (ctx.input.body as Record<string, unknown> | undefined)?.['location_provider_code'];
  if (
    providerRaw !== undefined &&
    providerRaw !== null &&
    (typeof providerRaw !== 'number' || !Number.isInteger(providerRaw))
  ) {
    throw invalidParam('location_provider_code', 'must be an integer');
  }
  // docs/api.md §3: setting the location reuses the primary market (no extra-market add-on).
  // A secondary market in the same country is folded into it so locations stay unique.
  let primary = brand.markets.find((m) => m.is_primary);
  brand.markets = brand.markets.filter((m) => m.is_primary || m.location !== location);
  if (primary) primary.location = location;
  else {
    primary = ctx.world.newMarket(brand, location, true, null);
    brand.markets.unshift(primary);
  }
  brand.location = location;
  brand.region = optionalText(ctx.input, 'location_region');
  brand.city = optionalText(ctx.input, 'location_city');
  brand.providerCode = (providerRaw as number | null | undefined) ?? null;
  return ok({
    brand_id: brand.profile.id,
    location,
    country_name: countryName(location),
    location_region: brand.region,
    location_city: brand.city,
    location_provider_code: brand.providerCode,
    primary_market: marketJson(brand, primary),
  });
};

export const setAliases: Handler = (ctx) => {
  const brand = brandOf(ctx);
  requireEditor(brand, 'Changing aliases');
  const raw = (ctx.input.body as Record<string, unknown> | undefined)?.['aliases'];
  if (!Array.isArray(raw) || raw.some((a) => typeof a !== 'string')) {
    throw invalidParam('aliases', 'must be an array of strings');
  }
  // Duplicates are removed case-insensitively; the first spelling wins (docs/api.md §4.7).
  const seen = new Set<string>();
  const aliases: string[] = [];
  for (const alias of (raw as string[]).map((a) => a.trim()).filter(Boolean)) {
    if (alias.length > 100) throw invalidParam('aliases', 'each alias must be at most 100 characters');
    const key = alias.toLocaleLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    aliases.push(alias);
  }
  if (aliases.length > MAX_ALIASES)
    throw invalidParam('aliases', `at most ${MAX_ALIASES} aliases are allowed`);
  brand.aliases = aliases;
  return ok({ success: true, brand_id: brand.profile.id, aliases });
};
