/**
 * The "Add market" form. Mistakes are shown under the inputs (`response_action: errors`)
 * with the form kept open: no country, an unknown one, a name too long, and the service's
 * own refusals such as 409 "Market DE already exists". Saved: the form closes and the user
 * gets a confirmation where they opened it.
 */
import { auditedWrite } from '../audited-write.js';
import { BRAND_WRITES } from '../brand-writes.js';
import { isCountryCode } from '../countries.js';
import { ensureCanEditBrand } from '../permissions.js';
import { tellUser } from '../tell-user.js';
import { ADD_MARKET_BLOCKS, ADD_MARKET_CALLBACK_ID, MARKET_NAME_MAX } from '../views/add-market-modal.js';
import { marketAddedReply } from '../views/markets-view.js';
import { brandForSubmission } from './brand-for-submission.js';
import { inlineServiceError } from './inline-service-error.js';
import { selectedValue, textValue } from './read-input.js';
import type { SubmissionHandler } from './submission-handler.js';

export const addMarketSubmission: SubmissionHandler = {
  callbackId: ADD_MARKET_CALLBACK_ID,
  async run(ctx) {
    const code = selectedValue(ctx.values, ADD_MARKET_BLOCKS.country)?.toUpperCase();
    const name = textValue(ctx.values, ADD_MARKET_BLOCKS.name);
    const errors: Record<string, string> = {};
    if (!code) errors[ADD_MARKET_BLOCKS.country] = 'Pick a country.';
    else if (!isCountryCode(code))
      errors[ADD_MARKET_BLOCKS.country] = `"${code}" is not a country code; pick one from the list.`;
    if (name.length > MARKET_NAME_MAX)
      errors[ADD_MARKET_BLOCKS.name] = `At most ${MARKET_NAME_MAX} characters.`;
    if (Object.keys(errors).length > 0) return { errors };

    const action = BRAND_WRITES.addMarket;
    await ctx.requireWriter(action);
    const { brand, meta } = await brandForSubmission(ctx);
    const actor = { userId: ctx.userId, channelId: meta.channelId };
    ensureCanEditBrand(ctx.deps, actor, brand, action);
    try {
      const market = await auditedWrite(
        ctx.deps,
        actor,
        { brandId: brand.id, action, detail: { location: code, marketName: name || null, via: 'modal' } },
        () =>
          ctx.deps.api.addMarket(
            { brandId: brand.id, location: code!, ...(name ? { marketName: name } : {}) },
            { lane: ctx.lane },
          ),
      );
      ctx.deps.brandCache.invalidate();
      return {
        close: true,
        afterAck: () => tellUser(ctx.client, actor, marketAddedReply(brand, market), ctx.deps.logger),
      };
    } catch (err) {
      const inline = inlineServiceError(err, ADD_MARKET_BLOCKS.country);
      if (inline) return inline;
      throw err;
    }
  },
};
