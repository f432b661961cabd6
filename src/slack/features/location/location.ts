/**
 * `location <brand> <country> [--region R] [--city C] [--provider-code N]` sets the
 * primary market (docs/api.md §4.6); without a country it opens the form. The country may be
 * an ISO-2 code, UK, or a full name; it is resolved to ISO-2 here so a typo gets a
 * "did you mean" instead of a round trip.
 */
import type { Brand } from '../../../api/schemas/index.js';
import { countryLabel, resolveCountry } from '../../../countries.js';
import { escapeMrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import { channelDefaultBrandId } from '../../commands/channel-default-brand.js';
import { BrandMissingError, isKnownBrandPrefix } from '../../commands/resolve-brand.js';
import type { CommandContext, Subcommand } from '../../commands/subcommand.js';
import { auditedWrite } from '../../kit/audited-write.js';
import { BRAND_WRITES } from '../../kit/brand-writes.js';
import { didYouMeanCountry } from '../../kit/did-you-mean-country.js';
import { ensureCanEditBrand } from '../../kit/permissions.js';
import { openLocationModal } from './edit-location-button.js';
import { PLACE_MAX } from './location-modal.js';
import { locationSetReply } from './location-view.js';
import { parseProviderCode } from './parse-provider-code.js';

function textFlag(ctx: CommandContext, name: string): string | undefined {
  const v = ctx.args.flags[name];
  if (v === undefined) return undefined;
  if (v === true || v.trim() === '')
    throw ctx.usageError(
      mrkdwn`\`--${escapeMrkdwn(name)}\` needs a value, e.g. \`--${escapeMrkdwn(name)} Bavaria\`.`,
    );
  if (v.trim().length > PLACE_MAX)
    throw ctx.usageError(mrkdwn`\`--${escapeMrkdwn(name)}\` is too long (at most ${PLACE_MAX} characters).`);
  return v.trim();
}

const KNOWN_FLAGS = new Set(['region', 'city', 'provider-code']);

/**
 * `location DE` in a channel without a default brand: the brand is missing, not unknown.
 * The brand picker answers, and the brand chosen runs `location <brand> DE` with the same
 * options.
 */
async function missingBrandForCountry(ctx: CommandContext, token: string | undefined): Promise<void> {
  const country = token ? resolveCountry(token) : undefined;
  if (!country || !token) return;
  const brands = await ctx.deps.brandCache.list();
  if (isKnownBrandPrefix(brands, token)) return;
  throw new BrandMissingError(
    brands,
    mrkdwn`Which brand should move to ${escapeMrkdwn(countryLabel(country.code))}? Pick one, name it first, e.g. \`/visibility location "Acme Analytics" ${escapeMrkdwn(country.code)}\`, or give this channel a default brand with \`/visibility use\`.`,
    location.usage,
  );
}

async function brandOrCountryHint(ctx: CommandContext, token: string | undefined): Promise<Brand> {
  await missingBrandForCountry(ctx, token);
  return ctx.resolveBrand(token);
}

export const location: Subcommand = {
  name: 'location',
  group: 'Brands',
  usage: '/visibility location [brand] [country] [--region R] [--city C] [--provider-code N]',
  summary:
    'Set a brand’s primary location (its primary market moves there). Country as ISO-2 (DE), UK, or a full name. Without a country: a form.',
  examples: [
    '/visibility location "Acme Analytics" DE --region Bavaria --city Munich',
    '/visibility location "Acme Labs" UK',
    '/visibility location "Globex Corporation" "United States" --provider-code 2840',
    '/visibility location "Acme Analytics"',
  ],
  async run(ctx) {
    for (const name of Object.keys(ctx.args.flags)) {
      if (!KNOWN_FLAGS.has(name)) {
        throw ctx.usageError(
          mrkdwn`\`--${escapeMrkdwn(name)}\` is not an option of location: use --region, --city or --provider-code.`,
        );
      }
    }
    const region = textFlag(ctx, 'region');
    const city = textFlag(ctx, 'city');
    const rawCode = ctx.args.flags['provider-code'];
    let providerCode: number | undefined;
    if (rawCode !== undefined) {
      providerCode = rawCode === true ? undefined : parseProviderCode(rawCode);
      if (providerCode === undefined) {
        throw ctx.usageError(
          mrkdwn`\`--provider-code\` must be a positive whole number, e.g. \`--provider-code 1023191\`.`,
        );
      }
    }

    const words = ctx.args.positional;
    // In a channel with a default brand, `location DE` means that brand; otherwise the
    // first word is the brand and the rest is the country.
    const whole = words.join(' ');
    const defaultOnly =
      (await channelDefaultBrandId(ctx.deps.store, ctx.channelId)) !== undefined && resolveCountry(whole);
    const brandToken = defaultOnly ? undefined : words[0];
    const countryText = defaultOnly ? whole : words.slice(1).join(' ');

    if (countryText.trim() === '') {
      await missingBrandForCountry(ctx, brandToken);
      if (region || city || providerCode !== undefined) {
        throw ctx.usageError(
          mrkdwn`Name the country too, e.g. \`/visibility location "Acme Analytics" DE --city Munich\`.`,
        );
      }
      await openLocationModal(ctx, await brandOrCountryHint(ctx, brandToken));
      return;
    }
    const country = resolveCountry(countryText);
    if (!country) {
      throw ctx.usageError(
        mrkdwn`"${escapeMrkdwn(countryText)}" is not a country I know. ${didYouMeanCountry(countryText)}`,
      );
    }

    const action = BRAND_WRITES.setLocation;
    await ctx.requireWriter(action);
    const found = await ctx.resolveBrand(brandToken);
    const actor = { userId: ctx.userId, channelId: ctx.channelId };
    await ensureCanEditBrand(ctx.deps, actor, found, action);
    const params = {
      brandId: found.id,
      country: country.code,
      ...(region ? { region } : {}),
      ...(city ? { city } : {}),
      ...(providerCode !== undefined ? { providerCode } : {}),
    };
    const result = await auditedWrite(
      ctx.deps,
      actor,
      {
        brandId: found.id,
        action,
        detail: {
          country: country.code,
          region: region ?? null,
          city: city ?? null,
          providerCode: providerCode ?? null,
        },
      },
      () => ctx.deps.api.setLocation(params),
    );
    ctx.deps.brandCache.invalidate();
    await ctx.respond(locationSetReply(found.name, result));
  },
};
