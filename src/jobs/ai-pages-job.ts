/**
 * AI Pages usage and status: one request per brand, checked against each channel's levels
 * with that channel's state. No entitlement (403 here, unlike anywhere else, is about the
 * plan and not the key) and "not set up" (config null) are noted once, not alerted daily:
 * the detector remembers it has said so.
 */
import { type AiPagesInput, detectAiPages } from '../alerts/detect-ai-pages.js';
import { NoEntitlementError } from '../api/errors.js';
import type { CallOptions, VisibilityApi } from '../api/visibility-api.js';
import { applyChannelLevels } from './apply-channel-levels.js';
import type { JobDefinition } from './job-definition.js';

/** The brand's AI Pages record, or "no entitlement" when the plan does not include it (the digest reads it too). */
export async function fetchAiPagesInput(
  api: Pick<VisibilityApi, 'getAiPages'>,
  brandId: string,
  opts: CallOptions,
): Promise<AiPagesInput> {
  try {
    return await api.getAiPages({ brandId }, opts);
  } catch (err) {
    if (!(err instanceof NoEntitlementError)) throw err;
    return { unavailable: 'no_entitlement' };
  }
}

export const aiPagesJob: JobDefinition = {
  name: 'ai-pages',
  select: (ctx) => ctx.subscriptions.listActive('alerts'),
  async runBrand(ctx, brand, subs, { nowMs }) {
    const input = await fetchAiPagesInput(ctx.deps.api, brand.id, ctx.call);
    return applyChannelLevels(ctx, subs, nowMs, {
      load: (channelId) => ctx.levels.getAiPages(channelId, brand.id),
      save: (channelId, next) => ctx.levels.putAiPages(channelId, brand.id, next, nowMs),
      detect: (prev, settings) => detectAiPages(prev, input, settings, brand, nowMs),
    });
  },
};
