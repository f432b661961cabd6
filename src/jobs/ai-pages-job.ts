/**
 * AI Pages usage and status: one request per brand, checked against each channel's levels
 * with that channel's state. No entitlement (403 here, unlike anywhere else, is about the
 * plan and not the key) and "not set up" (config null) are noted once, not alerted daily:
 * the detector remembers it has said so.
 */
import { type AiPagesInput, detectAiPages } from '../alerts/detect-ai-pages.js';
import { NoEntitlementError } from '../api/errors.js';
import { transaction } from '../store/transaction.js';
import { addCounts, enqueueAlerts, noCounts } from './enqueue-alerts.js';
import type { JobDefinition } from './job-definition.js';

export const aiPagesJob: JobDefinition = {
  name: 'ai-pages',
  select: (ctx) => ctx.subscriptions.listActive('alerts'),
  async runBrand(ctx, brand, subs, { nowMs }) {
    let input: AiPagesInput;
    try {
      input = await ctx.deps.api.getAiPages({ brandId: brand.id }, ctx.call);
    } catch (err) {
      if (!(err instanceof NoEntitlementError)) throw err;
      input = { unavailable: 'no_entitlement' };
    }
    return transaction(ctx.db, () => {
      const counts = noCounts();
      for (const sub of subs) {
        const d = detectAiPages(
          ctx.levels.getAiPages(sub.channelId, brand.id),
          input,
          sub.settings,
          brand,
          nowMs,
        );
        ctx.levels.putAiPages(sub.channelId, brand.id, d.next, nowMs);
        addCounts(counts, enqueueAlerts(ctx.sink, sub, d.alerts, d.notes, nowMs));
      }
      return counts;
    });
  },
};
