/**
 * The alt text each builder writes: what a screen reader user hears instead of the
 * picture, so it must carry the figures (first, latest, low, high, totals, the limit)
 * with their days, in the same number format as the messages.
 */
import { describe, expect, it } from 'vitest';
import { aiPagesUsageChart } from '../../src/charts/ai-pages-usage-chart.js';
import { citationsHistoryChart, MAX_COMPETITORS } from '../../src/charts/citations-history-chart.js';
import { crawlerVisitsChart, MAX_CRAWLERS, OTHER_CRAWLERS } from '../../src/charts/crawler-visits-chart.js';
import { digestBrandChart } from '../../src/charts/digest-brand-chart.js';
import {
  BRAND_CITATIONS,
  COMPETITORS,
  CRAWLER_DAYS,
  day,
  FORECAST,
  fixtureSpecs,
  PREVIOUS_DAYS,
  USAGE,
} from './chart-fixtures.js';

function valuesOf(spec: { vegaLite: unknown }): unknown[] {
  const found: unknown[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      const record = node as Record<string, unknown>;
      const data = record['data'] as { values?: unknown[] } | undefined;
      if (data?.values) found.push(...data.values);
      for (const [key, value] of Object.entries(record)) if (key !== 'data') walk(value);
    }
  };
  walk(spec.vegaLite);
  return found;
}

describe('citations history: brand mentions against competitor mentions', () => {
  it('states the brand series and each competitor first → latest, by the glossary names and the real period', () => {
    const spec = citationsHistoryChart({
      brand: 'Acme Analytics',
      days: BRAND_CITATIONS,
      competitors: COMPETITORS,
    });
    expect(spec.altText).toBe(
      'Acme Analytics brand mentions, 14 days to Nov 14, 2026: 24 on Nov 1 to 23 on Nov 14, low 20, high 26. ' +
        'Competitor mentions: Rival A 30 → 28; Rival B 12 → 15.',
    );
    // The lines count mentions on both sides: the title and the axis say so, never "citations".
    expect(spec.title).toBe('Brand mentions · Acme Analytics');
    const spec_ = JSON.stringify(spec.vegaLite);
    expect(spec_).toContain('"title":"Mentions (AI answers naming each brand)"');
    expect(spec_).toContain(
      '14 days to Nov 14, 2026 · AI answers naming Acme Analytics against its top 2 competitors',
    );
    expect(spec_).not.toMatch(/"Citations"/);
    expect(spec.fileName).toBe('mentions-acme-analytics-2026-11-14.png');
  });

  it(`keeps the ${MAX_COMPETITORS} most-cited competitors, most-cited first`, () => {
    const competitors = Array.from({ length: 8 }, (_, i) => ({
      name: `Rival ${i}`,
      days: [{ date: day(1), value: i * 10 }],
    }));
    const spec = citationsHistoryChart({ brand: 'Acme', days: BRAND_CITATIONS, competitors });
    expect(spec.altText).toContain(
      'Competitor mentions: Rival 7 70; Rival 6 60; Rival 5 50; Rival 4 40; Rival 3 30.',
    );
    expect(spec.altText).not.toContain('Rival 2');
    const series = new Set(valuesOf(spec).map((v) => (v as { series: string }).series));
    expect([...series]).toEqual(['Acme', 'Rival 7', 'Rival 6', 'Rival 5', 'Rival 4', 'Rival 3']);
  });

  it('spreads a range longer than Slack draws over its whole span, first and last day kept', () => {
    // 30 days: the brand from 30 up to 59, a rival from 10 down to 1 over the same days.
    const month = Array.from({ length: 30 }, (_, i) => day(i + 1));
    const spec = citationsHistoryChart({
      brand: 'Acme',
      days: month.map((date, i) => ({ date, value: 30 + i })),
      competitors: [
        { name: 'Rival', days: month.map((date, i) => ({ date, value: 10 - Math.floor(i / 3) })) },
      ],
    });
    // Start and end where a 30-day trend line does: Nov 1 and Nov 30, not Nov 11.
    expect(spec.altText).toBe(
      'Acme brand mentions, 30 days to Nov 30, 2026: 30 on Nov 1 to 59 on Nov 30, low 30, high 59. ' +
        'Competitor mentions: Rival 10 → 1.',
    );
    const drawn = spec.native!.series.map((s) => s.points);
    expect(drawn.map((points) => points.length)).toEqual([20, 20]);
    expect(drawn[0]!.map((p) => p.label).filter((_, i, all) => i === 0 || i === all.length - 1)).toEqual([
      'Nov 1',
      'Nov 30',
    ]);
  });

  it('says when the latest day lags behind today', () => {
    const spec = citationsHistoryChart({
      brand: 'Acme',
      days: BRAND_CITATIONS,
      competitors: [],
      nowMs: Date.parse('2026-11-26T09:00:00Z'),
    });
    expect(spec.altText).toMatch(
      /^Acme brand mentions, 14 days to Nov 14, 2026 \(the latest the service has, 12 days ago\): /,
    );
  });

  it('tells a competitor named like the brand apart, and says when there is no data', () => {
    const spec = citationsHistoryChart({
      brand: 'Acme',
      days: [],
      competitors: [{ name: 'Acme', days: [{ date: day(2), value: 3 }] }],
    });
    expect(spec.altText).toBe(
      'Acme brand mentions, 1 day to Nov 2, 2026: no data. Competitor mentions: Acme (competitor) 3.',
    );
  });

  it('leaves out days without a finite figure instead of drawing them as zero', () => {
    const spec = citationsHistoryChart({
      brand: 'Acme',
      days: [
        { date: day(2), value: Number.NaN },
        { date: day(3), value: 7 },
        { date: day(1), value: 5 },
      ],
      competitors: [],
    });
    expect(spec.altText).toBe(
      'Acme brand mentions, 3 days to Nov 3, 2026: 5 on Nov 1 to 7 on Nov 3, low 5, high 7.',
    );
    expect(valuesOf(spec)).toHaveLength(2);
  });
});

describe('crawler visits', () => {
  it('states the total, the previous period with the change, the busiest and quietest days and each crawler', () => {
    const spec = crawlerVisitsChart({
      brand: 'Acme Analytics',
      byDay: CRAWLER_DAYS,
      previous: PREVIOUS_DAYS,
    });
    // 7 days of GPTBot 10..16 (91), ClaudeBot 35, PerplexityBot 14: 140; previous 140.
    expect(spec.altText).toBe(
      'Acme Analytics AI crawler visits, Nov 1 – Nov 7: 140 in total (previous period 140, no change); ' +
        'busiest day Nov 7 with 23, quietest Nov 1 with 17; by crawler: GPTBot 91, ClaudeBot 35, PerplexityBot 14.',
    );
  });

  it('says nothing of a previous period when the range is not compared', () => {
    const spec = crawlerVisitsChart({ brand: 'Acme', byDay: CRAWLER_DAYS });
    expect(spec.altText).toMatch(/^Acme AI crawler visits, Nov 1 – Nov 7: 140 in total; busiest/);
    expect(JSON.stringify(spec.vegaLite)).not.toContain('Previous period');
  });

  it('draws the previous period over the current days, first day over first day', () => {
    const spec = crawlerVisitsChart({
      brand: 'Acme',
      byDay: CRAWLER_DAYS,
      previous: [
        { date: day(26, 10), visits: 4 },
        { date: day(25, 10), visits: 3 },
      ],
    });
    const previous = valuesOf(spec).filter((v) => (v as { previousDate?: string }).previousDate);
    expect(previous).toEqual([
      { date: day(1), previousDate: day(25, 10), visits: 3, crawler: 'Previous period' },
      { date: day(2), previousDate: day(26, 10), visits: 4, crawler: 'Previous period' },
    ]);
    expect(spec.altText).toContain('(previous period 7, +1900 %)');
  });

  it(`groups crawlers after the first ${MAX_CRAWLERS - 1} into "${OTHER_CRAWLERS}"`, () => {
    const byDay = Array.from({ length: 10 }, (_, i) => ({
      date: day(1),
      crawler: `Bot${i}`,
      visits: 100 - i,
    }));
    const spec = crawlerVisitsChart({ brand: 'Acme', byDay });
    expect(spec.altText).toContain(
      'by crawler: Bot0 100, Bot1 99, Bot2 98, Bot3 97, Bot4 96, Bot5 95, 4 other crawlers 370.',
    );
    const names = new Set(valuesOf(spec).map((v) => (v as { crawler: string }).crawler));
    expect(names.size).toBe(MAX_CRAWLERS);
    expect(names.has(OTHER_CRAWLERS)).toBe(true);
  });

  it('says so when no crawler came', () => {
    expect(crawlerVisitsChart({ brand: 'Acme', byDay: [] }).altText).toBe(
      'Acme AI crawler visits: no visits recorded in this range.',
    );
  });
});

describe('AI Pages usage', () => {
  it('states the usage against the limit and when the forecast reaches it', () => {
    const spec = aiPagesUsageChart({
      brand: 'Acme Analytics',
      usage: USAGE,
      limit: 400,
      periodStart: day(1),
      resetDate: day(1, 12),
      forecast: FORECAST,
    });
    expect(spec.altText).toBe(
      'Acme Analytics AI Pages usage, billing period Nov 1 – Dec 1: 300 of 400 requests (75 %) used by Nov 20; ' +
        'at this pace the limit is reached on Nov 27, before the reset on Dec 1.',
    );
  });

  it('states where the pace ends when it stays under the limit, and draws the limit line', () => {
    const spec = aiPagesUsageChart({
      brand: 'Acme',
      usage: USAGE,
      limit: 1000,
      periodStart: day(1),
      resetDate: day(1, 12),
      forecast: FORECAST,
    });
    expect(spec.altText).toContain('300 of 1,000 requests (30 %) used by Nov 20; at this pace 465 by Dec 1.');
    expect(valuesOf(spec)).toContainEqual({ limit: 1000, label: 'Limit 1,000' });
  });

  it('reads without a forecast or a known limit', () => {
    const spec = aiPagesUsageChart({
      brand: 'Acme',
      usage: [],
      limit: 0,
      periodStart: day(1),
      resetDate: day(1, 12),
    });
    expect(spec.altText).toBe(
      'Acme AI Pages usage, billing period Nov 1 – Dec 1: no usage recorded yet; no request limit known.',
    );
  });
});

describe('digest', () => {
  it('uses the last 7 days of each series and states both, by name and period', () => {
    const spec = digestBrandChart({
      brand: 'Acme Analytics',
      citations: BRAND_CITATIONS,
      crawlerVisits: BRAND_CITATIONS.map((d) => ({ date: d.date, value: d.value * 100 })),
    });
    // 8–14 Nov: 24, 22, 23, 21, 22, 24, 23.
    expect(spec.altText).toBe(
      'Acme Analytics. Citations, 7 days to Nov 14, 2026: 24 on Nov 8 to 23 on Nov 14, low 21, high 24. ' +
        'AI crawler visits, 7 days to Nov 14, 2026: 15,900 in total, 2,400 on Nov 8 to 2,300 on Nov 14, low 2,100, high 2,400.',
    );
    expect(spec.title).toBe('Acme Analytics · 7 days to Nov 14, 2026');
    expect(valuesOf(spec)).toHaveLength(14);
  });

  it('says why when the two series end on different days', () => {
    // Crawler visits count whole days: they end the day before the latest citations snapshot.
    const spec = digestBrandChart({
      brand: 'Acme',
      citations: BRAND_CITATIONS,
      crawlerVisits: BRAND_CITATIONS.slice(0, -1).map((d) => ({ date: d.date, value: d.value * 10 })),
    });
    expect(spec.title).toBe('Acme · the last 7 days');
    expect(spec.altText).toContain('Citations, 7 days to Nov 14, 2026: ');
    expect(spec.altText).toContain('AI crawler visits, 7 days to Nov 13, 2026: ');
    expect(spec.altText).toMatch(
      /AI crawler visits count whole days up to yesterday, so they end on Nov 13, 2026; citations end on the service's latest research day, Nov 14, 2026\.$/,
    );
    expect(JSON.stringify(spec.vegaLite)).toContain('"Citations to Nov 14"');
    expect(JSON.stringify(spec.vegaLite)).toContain('"AI crawler visits to Nov 13"');
  });

  it('says "no data" for a series the brand does not have', () => {
    const spec = digestBrandChart({
      brand: 'Acme',
      citations: [{ date: day(3), value: 4 }],
      crawlerVisits: [],
    });
    expect(spec.altText).toBe(
      'Acme. Citations, 1 day to Nov 3, 2026: 4 on Nov 3. AI crawler visits: no data.',
    );
  });
});

it('every kind names a PNG file and carries a title and alt text', () => {
  for (const spec of fixtureSpecs()) {
    expect(spec.fileName).toMatch(/^[a-z0-9-]+\.png$/);
    expect(spec.title.length).toBeGreaterThan(0);
    expect(spec.altText).toMatch(/\.$/);
  }
});
