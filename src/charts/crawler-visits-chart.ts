/**
 * AI crawler visits for the range (`crawler <brand>` overview): one stacked bar per day,
 * split by crawler, and, when the range is compared with the previous period, that
 * period's daily totals as a dashed line over the bars (its first day over the range's
 * first day, and so on).
 */
import type { TopLevelSpec } from 'vega-lite';
import { shortDayText } from '../figures/day-text.js';
import { countText, signedPercentText } from '../figures/number-text.js';
import type { ChartSpec } from './chart-spec.js';
import { sortedDays } from './describe-series.js';
import {
  AXIS_DATE_FORMAT,
  fileSlug,
  fullSizeFrame,
  MUTED_COLOUR,
  REFERENCE_COLOUR,
  SERIES_COLOURS,
} from './house-style.js';
import { daySeries, nativeModel } from './native-series.js';

export interface CrawlerDayVisits {
  /** `YYYY-MM-DD` */
  date: string;
  crawler: string;
  visits: number;
}

export interface CrawlerVisitsChartInput {
  brand: string;
  byDay: readonly CrawlerDayVisits[];
  /** The previous period's daily totals, oldest first, when the range is compared. */
  previous?: readonly { date: string; visits: number }[];
}

/** One colour per crawler; the rest share an "Other crawlers" bar segment. */
export const MAX_CRAWLERS = SERIES_COLOURS.length;
export const OTHER_CRAWLERS = 'Other crawlers';
const PREVIOUS_PERIOD = 'Previous period';

/**
 * Crawlers ranked by their visits in the range: the top ones by name, the rest together in
 * one bucket; and each day's total.
 */
function rankCrawlers(rows: readonly { date: string; crawler: string; visits: number }[]) {
  const totals = new Map<string, number>();
  const perDay = new Map<string, number>();
  for (const r of rows) {
    totals.set(r.crawler, (totals.get(r.crawler) ?? 0) + r.visits);
    perDay.set(r.date, (perDay.get(r.date) ?? 0) + r.visits);
  }
  const ranked = [...totals.entries()].sort(
    (a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0),
  );
  const named = ranked.length > MAX_CRAWLERS ? ranked.slice(0, MAX_CRAWLERS - 1) : ranked;
  const namedSet = new Set(named.map(([name]) => name));
  const hasOther = ranked.length > named.length;
  // A crawler really called "Other crawlers" must not merge with the bucket.
  const bucket = namedSet.has(OTHER_CRAWLERS) ? `${OTHER_CRAWLERS} (rest)` : OTHER_CRAWLERS;
  const otherTotal = ranked.slice(named.length).reduce((sum, [, n]) => sum + n, 0);
  return { perDay, ranked, named, namedSet, hasOther, bucket, otherTotal };
}

/** The chart's alt text: the total (against the previous period), busiest and quietest days, by crawler. */
function visitsAlt(
  brand: string,
  rangeText: string,
  days: {
    dates: readonly string[];
    perDay: ReadonlyMap<string, number>;
    total: number;
    compared: boolean;
    previousTotal: number;
  },
  crawlers: Pick<ReturnType<typeof rankCrawlers>, 'ranked' | 'named' | 'hasOther' | 'otherTotal'>,
): string[] {
  const { dates, perDay, total, compared, previousTotal } = days;
  const { ranked, named, hasOther, otherTotal } = crawlers;
  const alt: string[] = [];
  if (dates.length === 0) {
    alt.push(`${brand} AI crawler visits: no visits recorded in this range`);
  } else {
    const busiest = dates.reduce((a, b) => ((perDay.get(b) ?? 0) > (perDay.get(a) ?? 0) ? b : a));
    const quietest = dates.reduce((a, b) => ((perDay.get(b) ?? 0) < (perDay.get(a) ?? 0) ? b : a));
    let head = `${brand} AI crawler visits, ${rangeText}: ${countText(total)} in total`;
    if (compared) {
      const change =
        previousTotal > 0 ? `, ${signedPercentText(((total - previousTotal) / previousTotal) * 100)}` : '';
      head += ` (previous period ${countText(previousTotal)}${change})`;
    }
    alt.push(head);
    if (dates.length > 1) {
      alt.push(
        `busiest day ${shortDayText(busiest)} with ${countText(perDay.get(busiest))}, ` +
          `quietest ${shortDayText(quietest)} with ${countText(perDay.get(quietest))}`,
      );
    }
    const byCrawler = named.map(([name, n]) => `${name} ${countText(n)}`);
    if (hasOther) byCrawler.push(`${ranked.length - named.length} other crawlers ${countText(otherTotal)}`);
    alt.push(`by crawler: ${byCrawler.join(', ')}`);
  }
  return alt;
}

// Long by design: the bars, the previous period's line and the legend laid out, then one declarative
// chart spec read top to bottom; the ranking and the alt text are apart above.
export function crawlerVisitsChart(input: CrawlerVisitsChartInput): ChartSpec {
  const rows = input.byDay.filter((r) => Number.isFinite(r.visits) && r.visits >= 0);
  const { perDay, ranked, named, namedSet, hasOther, bucket, otherTotal } = rankCrawlers(rows);

  const dates = [...perDay.keys()].sort();
  const total = [...perDay.values()].reduce((sum, n) => sum + n, 0);
  const previous = sortedDays(input.previous ?? [])
    .filter((p) => Number.isFinite(p.visits))
    .slice(0, Math.max(dates.length, 1));
  const previousTotal = previous.reduce((sum, p) => sum + p.visits, 0);
  const compared = input.previous !== undefined && previous.length > 0;

  const bars = rows.map((r) => ({
    date: r.date,
    crawler: namedSet.has(r.crawler) ? r.crawler : bucket,
    visits: r.visits,
  }));
  const previousLine = previous.flatMap((p, i) => {
    const date = dates[i];
    return date ? [{ date, previousDate: p.date, visits: p.visits, crawler: PREVIOUS_PERIOD }] : [];
  });

  const legendNames = [...named.map(([name]) => name), ...(hasOther ? [bucket] : [])];
  const legendColours = [...SERIES_COLOURS.slice(0, named.length), ...(hasOther ? [MUTED_COLOUR] : [])];
  if (compared) {
    legendNames.push(PREVIOUS_PERIOD);
    legendColours.push(REFERENCE_COLOUR);
  }

  const first = dates[0];
  const last = dates.at(-1);
  const rangeText =
    first && last
      ? first === last
        ? shortDayText(first)
        : `${shortDayText(first)} – ${shortDayText(last)}`
      : '';
  const title = `AI crawler visits · ${input.brand}`;

  const alt = visitsAlt(
    input.brand,
    rangeText,
    { dates, perDay, total, compared, previousTotal },
    {
      ranked,
      named,
      hasOther,
      otherTotal,
    },
  );

  // One band per day (an ordinal scale), so each bar sits over its day's label and the
  // previous period's points sit on the bars' centres.
  const x = {
    field: 'date',
    type: 'ordinal',
    timeUnit: 'utcyearmonthdate',
    title: null,
    axis: { format: AXIS_DATE_FORMAT, labelOverlap: 'greedy' },
  } as const;

  const vegaLite: TopLevelSpec = {
    ...fullSizeFrame(
      title,
      `${rangeText}${rangeText ? ' · ' : ''}${countText(total)} visits${compared ? ', previous period dashed' : ''}`,
    ),
    layer: [
      {
        data: { values: bars },
        mark: { type: 'bar', width: { band: 0.8 } },
        encoding: {
          x,
          y: { aggregate: 'sum', field: 'visits', type: 'quantitative', title: 'Visits', stack: 'zero' },
          color: {
            field: 'crawler',
            type: 'nominal',
            scale: { domain: legendNames, range: legendColours },
            sort: legendNames,
            legend: { columns: 4 },
          },
          // The biggest crawler at the bottom of each bar, like the legend's order.
          order: { field: 'rank', type: 'quantitative' },
        },
        transform: [{ calculate: `indexof(${JSON.stringify(legendNames)}, datum.crawler)`, as: 'rank' }],
      },
      ...(compared
        ? [
            {
              data: { values: previousLine },
              mark: {
                type: 'line' as const,
                strokeDash: [8, 5],
                strokeWidth: 2.5,
                point: { size: 30, filled: true },
              },
              encoding: {
                x,
                y: { field: 'visits', type: 'quantitative' as const, title: 'Visits' },
                color: { field: 'crawler', type: 'nominal' as const },
              },
            },
          ]
        : []),
    ],
  };

  return {
    kind: 'crawler-visits',
    title,
    altText: `${alt.join('; ')}.`,
    fileName: `crawler-visits-${fileSlug(input.brand, 'brand')}${last ? `-${last}` : ''}.png`,
    vegaLite,
    native: nativeModel('bar', title, crawlerSeries(legendNames, bars), dates, 'Visits'),
  };
}

/** Each legend entry's visits per day (a crawler, the other crawlers together), in legend order. */
function crawlerSeries(
  names: readonly string[],
  bars: readonly { date: string; crawler: string; visits: number }[],
) {
  return names.flatMap((name) => {
    const perDay = new Map<string, number>();
    for (const b of bars) if (b.crawler === name) perDay.set(b.date, (perDay.get(b.date) ?? 0) + b.visits);
    const days = [...perDay].sort(([a], [b]) => (a < b ? -1 : 1)).map(([date, value]) => ({ date, value }));
    return days.length > 0 ? [daySeries(name, days)] : [];
  });
}
