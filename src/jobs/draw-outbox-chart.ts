/**
 * A `chart` outbox row's data as a picture: the chart spec built from the row, rendered by
 * the process's chart renderer (its concurrency bound keeps a 1,000-brand digest from
 * rasterising 1,000 images at once).
 */

import type { ChartRenderer } from '../charts/chart-renderer.js';
import type { ChartSpec } from '../charts/chart-spec.js';
import { digestBrandChart } from '../charts/digest-brand-chart.js';
import type { OutboxChart } from '../store/outbox-repo.js';

export interface DrawnChart {
  png: Uint8Array;
  fileName: string;
  title: string;
  altText: string;
}

/** The chart spec a row's data draws (the digest's 7 days). */
export function outboxChartSpec(chart: OutboxChart): ChartSpec {
  return digestBrandChart({
    brand: chart.brand,
    citations: chart.citations ?? [],
    crawlerVisits: chart.crawlerVisits ?? [],
  });
}

export async function drawOutboxChart(renderer: ChartRenderer, chart: OutboxChart): Promise<DrawnChart> {
  const spec = outboxChartSpec(chart);
  const rendered = await renderer.render(spec);
  return { png: rendered.png, fileName: rendered.fileName, title: spec.title, altText: rendered.altText };
}
