/**
 * The one look every chart shares, so a digest chart and a `crawler` chart read alike:
 * sized for Slack's image preview (800×400 drawn at 2× for sharp text on high-density
 * screens), DejaVu Sans (the font files ship with the project, so every machine draws the
 * same glyphs), zero-based value axes, and the Okabe-Ito palette, which stays distinct for
 * the common forms of colour blindness. The brand is drawn in a strong blue with a thick
 * line; competitors get thinner, slightly transparent lines in the other palette colours.
 */
import type { Config } from 'vega-lite';

export const CHART_WIDTH = 800;
export const CHART_HEIGHT = 400;
/** PNG pixels per SVG unit: Slack scales the image down, and 2× keeps the labels crisp. */
export const PIXEL_RATIO = 2;

export const FONT_FAMILY = 'DejaVu Sans';

/** Okabe & Ito (2008), "Color Universal Design"; black last, kept for reference lines. */
export const OKABE_ITO = {
  blue: '#0072B2',
  orange: '#E69F00',
  bluishGreen: '#009E73',
  reddishPurple: '#CC79A7',
  skyBlue: '#56B4E9',
  vermillion: '#D55E00',
  yellow: '#F0E442',
  black: '#000000',
} as const;

export const BRAND_COLOUR = OKABE_ITO.blue;
/** Competitors, most important first; never the brand's blue. */
export const COMPETITOR_COLOURS: readonly string[] = [
  OKABE_ITO.orange,
  OKABE_ITO.bluishGreen,
  OKABE_ITO.reddishPurple,
  OKABE_ITO.skyBlue,
  OKABE_ITO.vermillion,
];
/** Series that are not competitors (crawlers): the whole palette but black. */
export const SERIES_COLOURS: readonly string[] = [
  OKABE_ITO.blue,
  OKABE_ITO.orange,
  OKABE_ITO.bluishGreen,
  OKABE_ITO.reddishPurple,
  OKABE_ITO.skyBlue,
  OKABE_ITO.vermillion,
  OKABE_ITO.yellow,
];
/** "Other …" buckets and muted context. */
export const MUTED_COLOUR = '#8C8C8C';
/** Reference lines (a limit, the previous period). */
export const REFERENCE_COLOUR = '#333333';

export const BRAND_STROKE_WIDTH = 4;
export const COMPETITOR_STROKE_WIDTH = 2;
export const COMPETITOR_OPACITY = 0.75;

/** Labels as people read dates in the messages: "1 Nov". */
export const AXIS_DATE_FORMAT = '%-d %b';

export const houseConfig: Config = {
  font: FONT_FAMILY,
  background: '#FFFFFF',
  padding: 16,
  // Aria descriptions would spell dates in the machine's time zone; the alt text that
  // travels with the image says what a screen reader needs instead.
  aria: false,
  view: { stroke: null },
  title: {
    fontSize: 22,
    fontWeight: 'bold',
    anchor: 'start',
    subtitleFontSize: 14,
    subtitleColor: '#555555',
    offset: 12,
  },
  // 14 px at 800 wide stays legible when Slack shows the image at about half that width.
  axis: {
    labelFontSize: 14,
    titleFontSize: 14,
    titleFontWeight: 'normal',
    titleColor: '#333333',
    labelColor: '#333333',
    gridColor: '#E6E6E6',
    domainColor: '#888888',
    tickColor: '#888888',
  },
  axisX: { grid: false, labelAngle: 0, labelOverlap: 'greedy' },
  legend: {
    labelFontSize: 14,
    titleFontSize: 14,
    orient: 'bottom',
    direction: 'horizontal',
    title: null,
    labelLimit: 220,
    symbolStrokeWidth: 3,
  },
  line: { strokeCap: 'round', strokeJoin: 'round' },
};

// Made on the first label, not at import: the first time-zone-aware formatter loads the
// time-zone data, which a process that draws no chart (run-job with nothing due) skips.
let dayLabelFormat: Intl.DateTimeFormat | undefined;

/** "1 Nov" for a `YYYY-MM-DD` date, in UTC like the API's dates; the text itself when not a date. */
export function dayLabel(date: string): string {
  const ms = Date.parse(`${date.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(ms)) return date;
  dayLabelFormat ??= new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
  return dayLabelFormat.format(ms);
}

/** `[a-z0-9-]` words of a name for a file name; `fallback` when nothing is left. */
export function fileSlug(name: string, fallback: string): string {
  const slug = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return slug || fallback;
}

/**
 * The frame every full-size chart shares: the schema, the house config, the house size
 * with the title inside it, and the title with its subtitle.
 */
export function fullSizeFrame(text: string, subtitle: string) {
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    config: houseConfig,
    width: CHART_WIDTH,
    height: CHART_HEIGHT,
    autosize: { type: 'fit', contains: 'padding' },
    title: { text, subtitle },
  } as const;
}
