/**
 * The "Primary location" form: country required, region and city at most 100 characters,
 * the provider code a positive whole number; mistakes shown under their inputs.
 */
import { auditedWrite } from '../audited-write.js';
import { BRAND_WRITES } from '../brand-writes.js';
import { isCountryCode } from '../countries.js';
import { parseProviderCode } from '../parse-provider-code.js';
import { ensureCanEditBrand } from '../permissions.js';
import { tellUser } from '../tell-user.js';
import { LOCATION_BLOCKS, LOCATION_CALLBACK_ID, PLACE_MAX } from '../views/location-modal.js';
import { locationSetReply } from '../views/location-view.js';
import { brandForSubmission } from './brand-for-submission.js';
import { inlineServiceError } from './inline-service-error.js';
import { selectedValue, textValue } from './read-input.js';
import type { SubmissionHandler } from './submission-handler.js';

export const locationSubmission: SubmissionHandler = {
  callbackId: LOCATION_CALLBACK_ID,
  async run(ctx) {
    const country = selectedValue(ctx.values, LOCATION_BLOCKS.country)?.toUpperCase();
    const region = textValue(ctx.values, LOCATION_BLOCKS.region);
    const city = textValue(ctx.values, LOCATION_BLOCKS.city);
    const rawCode = textValue(ctx.values, LOCATION_BLOCKS.providerCode);
    const providerCode = rawCode === '' ? undefined : parseProviderCode(rawCode);

    const errors: Record<string, string> = {};
    if (!country) errors[LOCATION_BLOCKS.country] = 'Pick a country.';
    else if (!isCountryCode(country))
      errors[LOCATION_BLOCKS.country] = `"${country}" is not a country code; pick one from the list.`;
    if (region.length > PLACE_MAX) errors[LOCATION_BLOCKS.region] = `At most ${PLACE_MAX} characters.`;
    if (city.length > PLACE_MAX) errors[LOCATION_BLOCKS.city] = `At most ${PLACE_MAX} characters.`;
    if (rawCode !== '' && providerCode === undefined) {
      errors[LOCATION_BLOCKS.providerCode] = 'A positive whole number, e.g. 1023191, or leave it empty.';
    }
    if (Object.keys(errors).length > 0) return { errors };

    const action = BRAND_WRITES.setLocation;
    await ctx.requireWriter(action);
    const { brand, meta } = await brandForSubmission(ctx);
    const actor = { userId: ctx.userId, channelId: meta.channelId };
    ensureCanEditBrand(ctx.deps, actor, brand, action);
    try {
      const result = await auditedWrite(
        ctx.deps,
        actor,
        {
          brandId: brand.id,
          action,
          detail: {
            country,
            region: region || null,
            city: city || null,
            providerCode: providerCode ?? null,
            via: 'modal',
          },
        },
        () =>
          ctx.deps.api.setLocation(
            {
              brandId: brand.id,
              country: country!,
              ...(region ? { region } : {}),
              ...(city ? { city } : {}),
              ...(providerCode !== undefined ? { providerCode } : {}),
            },
            { lane: ctx.lane },
          ),
      );
      ctx.deps.brandCache.invalidate();
      return {
        close: true,
        afterAck: () => tellUser(ctx.client, actor, locationSetReply(brand.name, result), ctx.deps.logger),
      };
    } catch (err) {
      const inline = inlineServiceError(err, LOCATION_BLOCKS.country);
      if (inline) return inline;
      throw err;
    }
  },
};
