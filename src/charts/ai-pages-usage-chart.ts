/**
 * AI Pages requests through the billing period (`aipages`): the requests used so far as a
 * blue line over the whole period (start to reset, so the room left is visible), the plan's
 * limit as a labelled horizontal line, and, when there is a forecast, the pace continued
 * to the reset date as a dashed line.
 */
import type { TopLevelSpec } from 'vega-lite';
import { shortDayText } from '../figures/day-text.js';
import { countText, percentText } from '../figures/number-text.js';
import type { ChartSpec } from './chart-spec.js';
import { sortedDays } from './describe-series.js';
import { AXIS_DATE_FORMAT, BRAND_COLOUR, fileSlug, fullSizeFrame, OKABE_ITO } from './house-style.js';
import { daySeries, nativeModel } from './native-series.js';

export interface UsagePoint {
  /** `YYYY-MM-DD` */
  date: string;
  /** Requests used in the period up to this day (`requests_this_month`). */
  used: number;
}

export interface AiPagesUsageChartInput {
  brand: string;
  usage: readonly UsagePoint[];
  /** `requests_limit` */
  limit: number;
  /** `YYYY-MM-DD`, first day of the billing period. */
  periodStart: string;
  /** `YYYY-MM-DD`, the day the count resets (`reset_date`). */
  resetDate: string;
  /** The pace continued to the reset, oldest first. */
  forecast?: readonly UsagePoint[];
}

const LIMIT_COLOUR = OKABE_ITO.vermillion;
const FORECAST_COLOUR = OKABE_ITO.orange;

function finiteUsage(points: readonly UsagePoint[]): UsagePoint[] {
  return sortedDays(points.filter((p) => Number.isFinite(p.used) && p.used >= 0));
}

/** A Vega-Lite DateTime for a `YYYY-MM-DD` day, in UTC like the API's dates. */
function utcDateTime(date: string): { year: number; month: number; date: number; utc: true } {
  return {
    year: Number(date.slice(0, 4)),
    month: Number(date.slice(5, 7)),
    date: Number(date.slice(8, 10)),
    utc: true,
  };
}

/** The chart's alt text: usage so far against the limit, and where the pace leads. */
function usageAlt(
  input: AiPagesUsageChartInput,
  period: string,
  latest: UsagePoint | undefined,
  limit: number | undefined,
  forecastPoints: readonly UsagePoint[],
): string[] {
  const alt: string[] = [];
  if (!latest) {
    alt.push(`${input.brand} AI Pages usage, billing period ${period}: no usage recorded yet`);
  } else {
    const used = limit
      ? `${countText(latest.used)} of ${countText(limit)} requests (${percentText((latest.used / limit) * 100)})`
      : `${countText(latest.used)} requests`;
    alt.push(
      `${input.brand} AI Pages usage, billing period ${period}: ${used} used by ${shortDayText(latest.date)}`,
    );
  }
  const lastForecast = forecastPoints.at(-1);
  if (lastForecast) {
    const full = limit ? forecastPoints.find((p) => p.used >= limit) : undefined;
    alt.push(
      full
        ? `at this pace the limit is reached on ${shortDayText(full.date)}, before the reset on ${shortDayText(input.resetDate)}`
        : `at this pace ${countText(lastForecast.used)} by ${shortDayText(lastForecast.date)}`,
    );
  }
  if (!limit) alt.push('no request limit known');
  return alt;
}

// Long by design: the usage and forecast series prepared, then one declarative chart spec read top to
// bottom; the alt text is apart above.
export function aiPagesUsageChart(input: AiPagesUsageChartInput): ChartSpec {
  // Only days inside the billing period: the x axis is pinned to it, and a mark drawn
  // outside a pinned axis has made the rasteriser produce a blank image or abort.
  const inPeriod = (p: UsagePoint) => p.date >= input.periodStart && p.date <= input.resetDate;
  const usage = finiteUsage(input.usage).filter(inPeriod);
  const latest = usage.at(-1);
  const limit = Number.isFinite(input.limit) && input.limit > 0 ? input.limit : undefined;
  // The forecast is drawn from the latest real figure on, so the dashed line joins the solid one.
  const forecastPoints = finiteUsage(input.forecast ?? []).filter(
    (p) => inPeriod(p) && (!latest || p.date > latest.date),
  );
  const forecast = latest && forecastPoints.length > 0 ? [latest, ...forecastPoints] : forecastPoints;
  const highest = Math.max(0, limit ?? 0, ...usage.map((p) => p.used), ...forecast.map((p) => p.used));

  const title = `AI Pages usage · ${input.brand}`;
  const period = `${shortDayText(input.periodStart)} – ${shortDayText(input.resetDate)}`;
  const alt = usageAlt(input, period, latest, limit, forecastPoints);

  const x = {
    field: 'date',
    type: 'temporal' as const,
    timeUnit: 'utcyearmonthdate' as const,
    title: null,
    scale: { domain: [utcDateTime(input.periodStart), utcDateTime(input.resetDate)] },
    axis: { format: AXIS_DATE_FORMAT, tickCount: 8 },
  };
  const y = {
    field: 'used',
    type: 'quantitative' as const,
    title: 'Requests',
    scale: { domain: [0, highest > 0 ? highest * 1.08 : 1], nice: true },
  };

  const vegaLite: TopLevelSpec = {
    ...fullSizeFrame(
      title,
      `Billing period ${period}${limit ? ` · limit ${countText(limit)} requests` : ''}${forecastPoints.length > 0 ? ' · forecast dashed' : ''}`,
    ),
    layer: [
      {
        data: { values: usage },
        mark: {
          type: 'area',
          color: BRAND_COLOUR,
          opacity: 0.15,
          line: { color: BRAND_COLOUR, strokeWidth: 4 },
        },
        encoding: { x, y },
      },
      ...(forecast.length > 1
        ? [
            {
              data: { values: forecast },
              mark: { type: 'line' as const, color: FORECAST_COLOUR, strokeWidth: 3, strokeDash: [8, 5] },
              encoding: { x, y },
            },
          ]
        : []),
      ...(limit
        ? [
            {
              data: { values: [{ limit, label: `Limit ${countText(limit)}` }] },
              encoding: { y: { field: 'limit', type: 'quantitative' as const } },
              layer: [
                { mark: { type: 'rule' as const, color: LIMIT_COLOUR, strokeWidth: 2.5 } },
                {
                  mark: {
                    type: 'text' as const,
                    color: LIMIT_COLOUR,
                    align: 'left' as const,
                    baseline: 'bottom' as const,
                    dx: 4,
                    dy: -4,
                    x: 0,
                    fontSize: 14,
                    fontWeight: 'bold' as const,
                  },
                  encoding: { text: { field: 'label', type: 'nominal' as const } },
                },
              ],
            },
          ]
        : []),
    ],
  };

  return {
    kind: 'ai-pages-usage',
    title,
    altText: `${alt.join('; ')}.`,
    fileName: `ai-pages-usage-${fileSlug(input.brand, 'brand')}-${latest?.date ?? input.periodStart}.png`,
    vegaLite,
    native: usageNative(title, usage, forecast, limit),
  };
}

/** Requests used, the pace continued to the reset, and the limit as a flat line under the same days. */
function usageNative(
  title: string,
  usage: readonly UsagePoint[],
  forecast: readonly UsagePoint[],
  limit: number | undefined,
) {
  const days = (points: readonly UsagePoint[]) => points.map((p) => ({ date: p.date, value: p.used }));
  const dates = [...usage, ...forecast].map((p) => p.date);
  return nativeModel(
    'line',
    title,
    [
      daySeries('Requests used', days(usage)),
      ...(forecast.length > 0 ? [daySeries('At this pace', days(forecast))] : []),
      ...(limit
        ? [
            daySeries(
              'Limit',
              dates.map((date) => ({ date, value: limit })),
            ),
          ]
        : []),
    ],
    dates,
    'Requests',
  );
}
