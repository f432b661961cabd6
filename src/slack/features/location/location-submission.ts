/**
 * The "Primary location" form: country required, region and city at most 100 characters,
 * the provider code a positive whole number; mistakes shown under their inputs.
 */
import { BRAND_WRITES } from '../../kit/brand-writes.js';
import { countryProblem, selectedValue, textValue } from '../../submissions/read-input.js';
import { saveBrandForm } from '../../submissions/save-brand-form.js';
import type { SubmissionHandler } from '../../submissions/submission-handler.js';
import { LOCATION_BLOCKS, LOCATION_CALLBACK_ID, PLACE_MAX } from './location-modal.js';
import { locationSetReply } from './location-view.js';
import { parseProviderCode } from './parse-provider-code.js';

export const locationSubmission: SubmissionHandler = {
  callbackId: LOCATION_CALLBACK_ID,
  async run(ctx) {
    const country = selectedValue(ctx.values, LOCATION_BLOCKS.country)?.toUpperCase();
    const region = textValue(ctx.values, LOCATION_BLOCKS.region);
    const city = textValue(ctx.values, LOCATION_BLOCKS.city);
    const rawCode = textValue(ctx.values, LOCATION_BLOCKS.providerCode);
    const providerCode = rawCode === '' ? undefined : parseProviderCode(rawCode);

    const errors: Record<string, string> = {};
    const badCountry = countryProblem(country);
    if (badCountry) errors[LOCATION_BLOCKS.country] = badCountry;
    if (region.length > PLACE_MAX) errors[LOCATION_BLOCKS.region] = `At most ${PLACE_MAX} characters.`;
    if (city.length > PLACE_MAX) errors[LOCATION_BLOCKS.city] = `At most ${PLACE_MAX} characters.`;
    if (rawCode !== '' && providerCode === undefined) {
      errors[LOCATION_BLOCKS.providerCode] = 'A positive whole number, e.g. 1023191, or leave it empty.';
    }
    if (Object.keys(errors).length > 0) return { errors };

    return saveBrandForm(ctx, {
      action: BRAND_WRITES.setLocation,
      detail: {
        country,
        region: region || null,
        city: city || null,
        providerCode: providerCode ?? null,
        via: 'modal',
      },
      write: (brand) =>
        ctx.deps.api.setLocation({
          brandId: brand.id,
          country: country!,
          ...(region ? { region } : {}),
          ...(city ? { city } : {}),
          ...(providerCode !== undefined ? { providerCode } : {}),
        }),
      invalidatesBrands: true,
      errorBlockId: LOCATION_BLOCKS.country,
      confirm: (brand, result) => locationSetReply(brand.name, result),
    });
  },
};
