/**
 * Fixed data for every chart kind, shaped the way the views and the digest hold it: two
 * weeks of daily figures from 1 Nov 2026, competitors' mention series, crawler visits
 * split by crawler, an AI Pages billing period from 1 Nov to the 1 Dec reset. Small
 * enough to read in a failing golden diff.
 */
import { aiPagesUsageChart } from '../../src/charts/ai-pages-usage-chart.js';
import type { ChartSpec } from '../../src/charts/chart-spec.js';
import { citationsHistoryChart } from '../../src/charts/citations-history-chart.js';
import { crawlerVisitsChart } from '../../src/charts/crawler-visits-chart.js';
import { digestBrandChart } from '../../src/charts/digest-brand-chart.js';

export function day(n: number, month = 11): string {
  return `2026-${String(month).padStart(2, '0')}-${String(n).padStart(2, '0')}`;
}

/** 24 on 1 Nov … 23 on 14 Nov, low 20 (4 Nov), high 26 (6 Nov). */
export const BRAND_CITATIONS = [24, 25, 22, 20, 23, 26, 25, 24, 22, 23, 21, 22, 24, 23].map((value, i) => ({
  date: day(i + 1),
  value,
}));

export const COMPETITORS = [
  {
    name: 'Rival A',
    days: [30, 29, 28, 30, 29, 28, 30, 29, 28, 30, 29, 28, 30, 28].map((value, i) => ({
      date: day(i + 1),
      value,
    })),
  },
  {
    name: 'Rival B',
    days: [12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 15].map((value, i) => ({
      date: day(i + 1),
      value,
    })),
  },
];

export const CRAWLERS = ['GPTBot', 'ClaudeBot', 'PerplexityBot'];
/** GPTBot 10 + i, ClaudeBot 5, PerplexityBot 2 a day over 7 days. */
export const CRAWLER_DAYS = Array.from({ length: 7 }, (_, i) => [
  { date: day(i + 1), crawler: 'GPTBot', visits: 10 + i },
  { date: day(i + 1), crawler: 'ClaudeBot', visits: 5 },
  { date: day(i + 1), crawler: 'PerplexityBot', visits: 2 },
]).flat();
/** 20 a day over the 7 days before: 140 in total. */
export const PREVIOUS_DAYS = Array.from({ length: 7 }, (_, i) => ({ date: day(25 + i, 10), visits: 20 }));

/** 15 requests a day, 1–20 Nov (300 by 20 Nov), forecast on to the reset at the same pace. */
export const USAGE = Array.from({ length: 20 }, (_, i) => ({ date: day(i + 1), used: 15 * (i + 1) }));
export const FORECAST = [
  ...Array.from({ length: 10 }, (_, i) => ({ date: day(i + 21), used: 15 * (i + 21) })),
  { date: day(1, 12), used: 465 },
];

export function fixtureSpecs(brand = 'Acme Analytics'): ChartSpec[] {
  return [
    citationsHistoryChart({ brand, days: BRAND_CITATIONS, competitors: COMPETITORS }),
    crawlerVisitsChart({ brand, byDay: CRAWLER_DAYS, previous: PREVIOUS_DAYS }),
    aiPagesUsageChart({
      brand,
      usage: USAGE,
      limit: 400,
      periodStart: day(1),
      resetDate: day(1, 12),
      forecast: FORECAST,
    }),
    digestBrandChart({
      brand,
      citations: BRAND_CITATIONS,
      crawlerVisits: BRAND_CITATIONS.map((d) => ({ date: d.date, value: d.value * 10 })),
    }),
  ];
}
