/**
 * "Post chart to channel" on `aipages` (vis:chart:aipages): this billing period's usage
 * against the limit, with the pace so far carried on to the reset date.
 *
 * The service reports only the count so far (`requests_this_month`), which by definition
 * was 0 on the period's first day (a month before `reset_date`): the line runs from there
 * to today. The dashed line continues the pace an AI Pages alert states (ai-pages-forecast.ts:
 * the bot's stored readings a day apart or more when it has them, else the period's pace
 * so far), so the chart and the alert give one figure for where usage is heading.
 */
import { percentAtReset, type UsageSample, withReading } from '../../../alerts/ai-pages-forecast.js';
import type { AiPagesUsage } from '../../../api/schemas/ai-pages.js';
import { type AiPagesUsageChartInput, aiPagesUsageChart } from '../../../charts/ai-pages-usage-chart.js';
import { mrkdwn } from '../../../messages/mrkdwn.js';
import { UserError, UserErrorCode } from '../../../messages/user-error.js';
import { isDatabaseUnavailable } from '../../../store/database-unavailable.js';
import type { Store } from '../../../store/store.js';
import { dayNumber, utcDay } from '../../../utc-days.js';
import type { ActionHandler } from '../../actions/action-handler.js';
import { valueFields } from '../../actions/action-value-fields.js';
import { parseActionValue } from '../../actions/parse-action-value.js';
import { postChart } from '../../actions/post-chart.js';
import { CHART_ACTION_PREFIX } from '../../views/chart-button.js';

export const AIPAGES_CHART_VIEW = 'aipages';

/** The same day a month earlier (the 31st of a shorter month becomes its last day). */
function monthBefore(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const lastDay = new Date(Date.UTC(y, m - 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m - 2, Math.min(d, lastDay))).toISOString().slice(0, 10);
}

/**
 * The chart's input, or null when today is not inside the period the figures belong to
 * (a stale or odd reset date): there is no line to draw then, and the rasteriser aborts
 * the whole process on a point outside the chart's period axis, so it never gets one.
 */
export function aiPagesChartInput(
  brand: string,
  usage: AiPagesUsage,
  nowMs: number,
  stored: readonly UsageSample[] = [],
): AiPagesUsageChartInput | null {
  const resetDate = usage.reset_date.slice(0, 10);
  const periodStart = monthBefore(resetDate);
  const today = utcDay(nowMs);
  const used = usage.requests_this_month;
  const elapsed = dayNumber(today) - dayNumber(periodStart);
  const left = dayNumber(resetDate) - dayNumber(today);
  if (elapsed < 0 || left < 0) return null;
  const atReset = percentAtReset(withReading(stored, usage, nowMs));
  return {
    brand,
    usage:
      elapsed > 0
        ? [
            { date: periodStart, used: 0 },
            { date: today, used },
          ]
        : [{ date: today, used }],
    limit: usage.requests_limit,
    periodStart,
    resetDate,
    ...(left > 0 && atReset !== null
      ? {
          forecast: [
            {
              date: resetDate,
              used: Math.round(used + ((atReset - usage.percentage_used) / 100) * usage.requests_limit),
            },
          ],
        }
      : {}),
  };
}

/**
 * The usage readings the AI Pages job stored for the brand (none when it never polled it);
 * none either while the database cannot be read: the chart then takes the period's pace.
 */
export async function storedUsageSamples(store: Pick<Store, 'pollObservations'>, brandId: string) {
  try {
    const seen = await store.pollObservations.get<{ samples?: UsageSample[] }>(brandId, 'ai-pages');
    return seen?.data.samples ?? [];
  } catch (err) {
    if (isDatabaseUnavailable(err)) return [];
    throw err;
  }
}

export const aiPagesChartAction: ActionHandler = {
  prefix: `${CHART_ACTION_PREFIX}${AIPAGES_CHART_VIEW}`,
  async run(ctx) {
    const v = valueFields(parseActionValue(ctx.action.value));
    const brand = await ctx.resolveBrand(v.string('brandId'));
    postChart(ctx, async () => {
      const record = await ctx.deps.api.getAiPages({ brandId: brand.id });
      const stored = await storedUsageSamples(ctx.deps.store, brand.id);
      const input = record.usage && aiPagesChartInput(brand.name, record.usage, ctx.deps.clock.now(), stored);
      if (!input)
        throw new UserError(
          UserErrorCode.ChartNoData,
          mrkdwn`There is no AI Pages usage in the current billing period to draw for this brand.`,
        );
      return aiPagesUsageChart(input);
    });
  },
};
