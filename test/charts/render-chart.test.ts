/**
 * The rendered pictures, read back the way Slack and a browser would: the golden SVG for
 * fixed data (deterministic output, also in another time zone), the PNG decoded from its
 * bytes (signature, IHDR size, pixels in the house colours), text from the API drawn as
 * text rather than markup, and coded errors.
 *
 * Golden files live in test/charts/golden (`.svg.golden`, so the linter leaves them
 * alone). After an intended change of the house style or a builder, rewrite them with
 *   UPDATE_CHART_GOLDENS=1 npx vitest run test/charts/render-chart.test.ts
 * and look at the diff (and at the pictures: open the SVG in a browser) before committing.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { aiPagesUsageChart } from '../../src/charts/ai-pages-usage-chart.js';
import type { ChartSpec } from '../../src/charts/chart-spec.js';
import { citationsHistoryChart } from '../../src/charts/citations-history-chart.js';
import { crawlerVisitsChart } from '../../src/charts/crawler-visits-chart.js';
import { digestBrandChart } from '../../src/charts/digest-brand-chart.js';
import { ChartError, ChartErrorCode } from '../../src/charts/errors.js';
import {
  BRAND_COLOUR,
  CHART_HEIGHT,
  CHART_WIDTH,
  COMPETITOR_COLOURS,
  PIXEL_RATIO,
} from '../../src/charts/house-style.js';
import { chartFontFiles, renderChart, renderChartSvg } from '../../src/charts/render-chart.js';
import { BRAND_CITATIONS, COMPETITORS, CRAWLER_DAYS, day, fixtureSpecs } from './chart-fixtures.js';
import { colourCounts, decodePng, PNG_SIGNATURE } from './decode-png.js';

const GOLDEN_DIR = path.join(import.meta.dirname, 'golden');
const update = process.env['UPDATE_CHART_GOLDENS'] === '1';

function golden(spec: ChartSpec): string {
  return path.join(GOLDEN_DIR, `${spec.kind}.svg.golden`);
}

describe('golden SVG', () => {
  const originalTz = process.env['TZ'];
  afterEach(() => {
    if (originalTz === undefined) delete process.env['TZ'];
    else process.env['TZ'] = originalTz;
  });

  for (const spec of fixtureSpecs()) {
    it(`${spec.kind} draws the same SVG for the same data`, async () => {
      const svg = await renderChartSvg(spec);
      if (update) {
        mkdirSync(GOLDEN_DIR, { recursive: true });
        writeFileSync(golden(spec), svg);
      }
      expect(existsSync(golden(spec)), 'golden file missing: run with UPDATE_CHART_GOLDENS=1').toBe(true);
      expect(svg).toBe(readFileSync(golden(spec), 'utf8'));
    });
  }

  it('draws the same days in a time zone far from UTC (the API dates are UTC days)', async () => {
    // Node re-reads TZ when it is assigned, so Date and Intl see the new zone at once.
    process.env['TZ'] = 'Pacific/Kiritimati';
    expect(new Date(Date.UTC(2026, 10, 1)).getHours()).toBe(14);
    for (const spec of fixtureSpecs()) {
      expect(await renderChartSvg(spec)).toBe(readFileSync(golden(spec), 'utf8'));
    }
    process.env['TZ'] = 'America/Adak';
    const [citations] = fixtureSpecs();
    expect(await renderChartSvg(citations!)).toBe(readFileSync(golden(citations!), 'utf8'));
  });

  it('labels days the way the messages do and writes the title', async () => {
    const svg = readFileSync(golden(fixtureSpecs()[0]!), 'utf8');
    expect(svg).toContain('>Nov 1</text>');
    expect(svg).toContain('>Brand mentions · Acme Analytics</text>');
    expect(svg).toContain('>Mentions (AI answers naming each brand)</text>');
    expect(svg).toContain('font-family="DejaVu Sans"');
    // Zero-based value axis.
    expect(svg).toMatch(/role-axis-label[\s\S]*?>0<\/text>/);
  });
});

describe('PNG', () => {
  it('is a valid PNG of the house size at twice the resolution, in the house colours', async () => {
    const [citations] = fixtureSpecs();
    const rendered = await renderChart(citations!);
    expect([...rendered.png.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
    const image = decodePng(rendered.png);
    expect({ width: image.width, height: image.height }).toEqual({
      width: CHART_WIDTH * PIXEL_RATIO,
      height: CHART_HEIGHT * PIXEL_RATIO,
    });
    expect({ width: rendered.width, height: rendered.height }).toEqual({
      width: image.width,
      height: image.height,
    });
    const colours = colourCounts(image);
    expect(colours.size).toBeGreaterThan(1);
    // White background, the brand's thick blue line and the first competitor's orange one.
    expect(colours.get('#FFFFFF') ?? 0).toBeGreaterThan(image.width * image.height * 0.5);
    expect(colours.get(BRAND_COLOUR) ?? 0).toBeGreaterThan(1000);
    // Competitors are drawn translucent over white, so their pixels are a lighter orange.
    const brandPixels = colours.get(BRAND_COLOUR) ?? 0;
    const exactCompetitor = colours.get(COMPETITOR_COLOURS[0]!) ?? 0;
    expect(exactCompetitor).toBeLessThan(brandPixels);
    expect(rendered.altText).toBe(citations!.altText);
    expect(rendered.fileName).toBe(citations!.fileName);
  });

  it('renders every kind to a decodable, non-blank image', async () => {
    for (const spec of fixtureSpecs()) {
      const rendered = await renderChart(spec);
      const image = decodePng(rendered.png);
      expect(image.width, spec.kind).toBe(rendered.width);
      expect(image.height, spec.kind).toBe(rendered.height);
      expect(image.width * image.height, spec.kind).toBeGreaterThan(600 * 200 * PIXEL_RATIO ** 2);
      expect(colourCounts(image).size, spec.kind).toBeGreaterThan(10);
    }
  });

  it('leaves out usage from before the billing period instead of drawing a blank image', async () => {
    // A reading from the previous period (the service's history can reach back) lies
    // outside the pinned x axis: drawn, it left the PNG almost empty.
    const spec = aiPagesUsageChart({
      brand: 'Acme Analytics',
      usage: [
        { date: '2026-10-01', used: 5 },
        { date: '2026-11-20', used: 50 },
      ],
      limit: 100,
      periodStart: '2026-11-10',
      resetDate: '2026-12-10',
    });
    const image = decodePng((await renderChart(spec)).png);
    expect(colourCounts(image).size).toBeGreaterThan(10);
    expect(spec.altText).toContain('50 of 100 requests');
    expect(spec.altText).not.toContain('1 Oct');
  });

  it('draws text with the shipped DejaVu fonts only', () => {
    const files = chartFontFiles();
    expect(files.map((f) => path.basename(f))).toEqual(['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf']);
    for (const file of files) expect(existsSync(file)).toBe(true);
  });
});

describe('text from the API is data', () => {
  const hostile = '<script>alert(1)</script> & "Co" <tspan>x</tspan>';

  it('draws hostile brand, competitor and crawler names as escaped text', async () => {
    const specs = [
      citationsHistoryChart({
        brand: hostile,
        days: BRAND_CITATIONS,
        competitors: [{ name: `${hostile} rival`, days: COMPETITORS[0]!.days }],
      }),
      crawlerVisitsChart({
        brand: hostile,
        byDay: [...CRAWLER_DAYS, { date: day(3), crawler: '<img src=x onerror=alert(1)>', visits: 4 }],
      }),
      digestBrandChart({ brand: hostile, citations: BRAND_CITATIONS, crawlerVisits: BRAND_CITATIONS }),
    ];
    for (const spec of specs) {
      const rendered = await renderChart(spec);
      expect(rendered.svg, spec.kind).not.toMatch(/<script|<tspan>x|<img|onerror=alert/);
      expect(rendered.svg, spec.kind).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; ');
      // Still one well-formed picture: resvg parsed it and drew it.
      expect(decodePng(rendered.png).width, spec.kind).toBeGreaterThan(0);
    }
  });

  it('keeps the file name to safe characters', () => {
    const spec = citationsHistoryChart({ brand: `../../${hostile}`, days: BRAND_CITATIONS, competitors: [] });
    expect(spec.fileName).toMatch(/^[a-z0-9-]+\.png$/);
    expect(citationsHistoryChart({ brand: '日本', days: [], competitors: [] }).fileName).toBe(
      'mentions-brand.png',
    );
  });
});

describe('errors', () => {
  it('a spec Vega-Lite cannot compile fails with a coded ChartError', async () => {
    const [citations] = fixtureSpecs();
    const broken: ChartSpec = {
      ...citations!,
      vegaLite: {
        data: { values: [] },
        mark: 'line',
        encoding: { x: { field: 'a', type: 'nonsense' } },
      } as never,
    };
    const error = await renderChart(broken).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChartError);
    expect((error as ChartError).code).toBe(ChartErrorCode.RenderFailed);
    expect((error as ChartError).cause).toBeDefined();
  });
});
