/**
 * The "Add market" form. Mistakes are shown under the inputs (`response_action: errors`)
 * with the form kept open: no country, an unknown one, a name too long, and the service's
 * own refusals such as 409 "Market DE already exists"; a form opened without a brand and
 * submitted without one picked. Saved: the form closes and the user
 * gets a confirmation where they opened it.
 */
import { BRAND_WRITES } from '../../kit/brand-writes.js';
import { brandChoiceProblem } from '../../submissions/brand-for-submission.js';
import { countryProblem, selectedValue, textValue } from '../../submissions/read-input.js';
import { saveBrandForm } from '../../submissions/save-brand-form.js';
import type { SubmissionHandler } from '../../submissions/submission-handler.js';
import { ADD_MARKET_BLOCKS, ADD_MARKET_CALLBACK_ID, MARKET_NAME_MAX } from './add-market-modal.js';
import { marketAddedReply } from './markets-view.js';

export const addMarketSubmission: SubmissionHandler = {
  callbackId: ADD_MARKET_CALLBACK_ID,
  async run(ctx) {
    const code = selectedValue(ctx.values, ADD_MARKET_BLOCKS.country)?.toUpperCase();
    const name = textValue(ctx.values, ADD_MARKET_BLOCKS.name);
    const errors: Record<string, string> = brandChoiceProblem(ctx);
    const badCountry = countryProblem(code);
    if (badCountry) errors[ADD_MARKET_BLOCKS.country] = badCountry;
    if (name.length > MARKET_NAME_MAX)
      errors[ADD_MARKET_BLOCKS.name] = `At most ${MARKET_NAME_MAX} characters.`;
    if (Object.keys(errors).length > 0) return { errors };

    return saveBrandForm(ctx, {
      action: BRAND_WRITES.addMarket,
      detail: { location: code, marketName: name || null, via: 'modal' },
      write: (brand) =>
        ctx.deps.api.addMarket({ brandId: brand.id, location: code!, ...(name ? { marketName: name } : {}) }),
      invalidatesBrands: true,
      errorBlockId: ADD_MARKET_BLOCKS.country,
      confirm: (brand, market) => marketAddedReply(brand, market),
    });
  },
};
