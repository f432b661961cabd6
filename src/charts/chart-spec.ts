/**
 * What a chart builder hands to the renderer: a Vega-Lite spec in the house style plus the
 * words that travel with the picture. The spec is plain data (no functions), so it can be
 * logged, diffed in a golden test or rendered in another process.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { SeriesChartModel } from '../messages/native-chart.js';

export type ChartKind =
  | 'citations-history'
  | 'crawler-visits'
  | 'ai-pages-usage'
  | 'digest-brand'
  | 'page-traffic';

export interface ChartSpec {
  kind: ChartKind;
  /** The chart's heading, also drawn on the image; plain text. */
  title: string;
  /**
   * Alt text for the uploaded image: the numbers a screen reader user needs to get what
   * the picture shows (first and latest figure, low and high, totals). Plain text.
   */
  altText: string;
  /** A safe file name for the upload (`[a-z0-9-]` and `.png`), never the raw brand name. */
  fileName: string;
  vegaLite: TopLevelSpec;
  /** The same figures for a chart Slack draws in the message (native-series.ts). */
  native?: SeriesChartModel;
}
