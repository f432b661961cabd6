/**
 * `markets <brand>` lists; `add <country> [name]` adds (or opens the form without a
 * country); `remove <country or market id>` asks for a confirmed click before the DELETE.
 * Removing the primary market is refused here, before any write, as docs/api.md §3 forbids it.
 */

import { countryLabel, resolveCountry } from '../../../countries.js';
import { escapeMrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import { UserError, UserErrorCode } from '../../../messages/user-error.js';
import { brandAndVerb } from '../../commands/brand-and-verb.js';
import { BrandMissingError } from '../../commands/resolve-brand.js';
import type { CommandContext, Subcommand } from '../../commands/subcommand.js';
import { auditedWrite, refusedWrite } from '../../kit/audited-write.js';
import { BRAND_WRITES } from '../../kit/brand-writes.js';
import { didYouMeanCountry } from '../../kit/did-you-mean-country.js';
import { fetchBrandDetails } from '../../kit/fetch-brand-details.js';
import { ensureCanEditBrand } from '../../kit/permissions.js';
import { openAddMarketModal, openAddMarketModalForAnyBrand } from './add-market-button.js';
import {
  confirmRemoveMarketReply,
  marketAddedReply,
  marketsReply,
  primaryMarketRefusal,
} from './markets-view.js';

const VERBS = new Set(['list', 'add', 'remove', 'rm', 'delete']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** "United Arab Emirates" is the longest name people type unquoted. */
const MAX_COUNTRY_WORDS = 4;

/** The country is the longest leading run of words that names one; the rest is the display name. */
export function splitCountryAndName(words: readonly string[]): { code: string; name: string } | undefined {
  for (let n = Math.min(MAX_COUNTRY_WORDS, words.length); n >= 1; n -= 1) {
    const country = resolveCountry(words.slice(0, n).join(' '));
    if (country) return { code: country.code, name: words.slice(n).join(' ').trim() };
  }
  return undefined;
}

type Actor = { userId: string; channelId: string };

async function listMarkets(ctx: CommandContext, brandToken: string | undefined): Promise<void> {
  const found = await ctx.resolveBrand(brandToken);
  const details = await fetchBrandDetails(ctx.deps, found, ['markets']);
  await ctx.respond(marketsReply(details, `markets ${found.id}`));
}

/** `add` with no country opens the form; with one, adds the market after the write checks. */
async function addMarket(
  ctx: CommandContext,
  actor: Actor,
  brandToken: string | undefined,
  rest: readonly string[],
): Promise<void> {
  if (rest.length === 0) {
    // No brand named and no channel default: the form asks which brand, so the person
    // fills one form instead of answering a picker first.
    const found = await ctx.resolveBrand(brandToken).catch((err: unknown) => {
      if (err instanceof BrandMissingError) return undefined;
      throw err;
    });
    await (found ? openAddMarketModal(ctx, found) : openAddMarketModalForAnyBrand(ctx));
    return;
  }
  const parsed = splitCountryAndName(rest);
  if (!parsed) {
    throw ctx.usageError(
      mrkdwn`"${escapeMrkdwn(rest[0]!)}" is not a country I know. ${didYouMeanCountry(rest[0]!)}`,
    );
  }
  const action = BRAND_WRITES.addMarket;
  await ctx.requireWriter(action);
  const found = await ctx.resolveBrand(brandToken);
  await ensureCanEditBrand(ctx.deps, actor, found, action);
  const market = await auditedWrite(
    ctx.deps,
    actor,
    { brandId: found.id, action, detail: { location: parsed.code, marketName: parsed.name || null } },
    () =>
      ctx.deps.api.addMarket({
        brandId: found.id,
        location: parsed.code,
        ...(parsed.name ? { marketName: parsed.name } : {}),
      }),
  );
  // The first market becomes primary, which changes the brand's location in the list.
  ctx.deps.brandCache.invalidate();
  await ctx.respond(marketAddedReply(found, market));
}

/** The market `remove` names: a market id, or else a country. */
function removalTarget(ctx: CommandContext, rest: readonly string[]) {
  const target = rest.join(' ').trim();
  if (target === '')
    throw ctx.usageError(mrkdwn`Name the market to remove: a country (DE, Germany) or a market id.`);
  const byId = UUID.test(target) ? target.toLowerCase() : undefined;
  const country = byId ? undefined : resolveCountry(target);
  if (!byId && !country) {
    throw ctx.usageError(
      mrkdwn`"${escapeMrkdwn(target)}" is not a country I know. ${didYouMeanCountry(target)}`,
    );
  }
  return { byId, country };
}

/**
 * `remove` asks for a confirmed click; the primary market and a market the brand does not
 * have are refused (and recorded) before any write.
 */
async function removeMarket(
  ctx: CommandContext,
  actor: Actor,
  brandToken: string | undefined,
  rest: readonly string[],
): Promise<void> {
  const { byId, country } = removalTarget(ctx, rest);
  const action = BRAND_WRITES.removeMarket;
  await ctx.requireWriter(action);
  const found = await ctx.resolveBrand(brandToken);
  await ensureCanEditBrand(ctx.deps, actor, found, action);
  const write = {
    brandId: found.id,
    action,
    detail: byId ? { marketId: byId } : { location: country!.code },
  };
  // The brand list already says which country is primary: refuse without asking the service.
  if (country && found.location?.toUpperCase() === country.code) {
    throw await refusedWrite(
      ctx.deps,
      actor,
      write,
      new UserError(UserErrorCode.PrimaryMarket, primaryMarketRefusal(found, country.code)),
    );
  }
  const details = await fetchBrandDetails(ctx.deps, found, ['markets']);
  const list = details.markets ?? [];
  const market = list.find((m) =>
    byId ? m.id.toLowerCase() === byId : m.location.toUpperCase() === country!.code,
  );
  if (!market) {
    const have = list.map((m) => countryLabel(m.location)).join(', ') || 'none';
    throw await refusedWrite(
      ctx.deps,
      actor,
      write,
      new UserError(
        UserErrorCode.MarketUnknown,
        mrkdwn`*${escapeMrkdwn(found.name)}* has no market ${escapeMrkdwn(byId ?? countryLabel(country!.code))}. Its markets: ${escapeMrkdwn(have)}.`,
      ),
    );
  }
  if (market.is_primary) {
    throw await refusedWrite(
      ctx.deps,
      actor,
      write,
      new UserError(UserErrorCode.PrimaryMarket, primaryMarketRefusal(found, market.location)),
    );
  }
  await ctx.respond(confirmRemoveMarketReply(found, market));
}

export const markets: Subcommand = {
  name: 'markets',
  aliases: ['market'],
  group: 'Brands',
  usage: '/visibility markets [brand] [add <country> [name] | remove <country or market id>]',
  summary:
    'List a brand’s markets, add one (without a country: a form with a country picker) or remove one after a confirmation. The primary market cannot be removed.',
  examples: [
    '/visibility markets "Acme Analytics"',
    '/visibility markets "Acme Analytics" add DE Germany',
    '/visibility markets "Acme Analytics" add',
    '/visibility markets "Acme Analytics" remove CA',
  ],
  async run(ctx) {
    const { brandToken, verb, rest } = brandAndVerb(ctx.args.positional, VERBS);
    const actor = { userId: ctx.userId, channelId: ctx.channelId };
    if (verb === undefined || verb === 'list') return listMarkets(ctx, brandToken);
    if (verb === 'add') return addMarket(ctx, actor, brandToken, rest);
    return removeMarket(ctx, actor, brandToken, rest);
  },
};
