/**
 * A ChartSpec to pictures, in process and without a browser: Vega-Lite compiles the spec
 * to Vega, a headless Vega view (renderer 'none') draws it as SVG, and resvg turns the
 * SVG into PNG using only the DejaVu fonts shipped in node_modules, never the machine's
 * own, so the same data gives the same image on a laptop, in CI and in the container.
 *
 * Cost: compiling and drawing the SVG runs on the event loop (tens of milliseconds, with a
 * turn of the loop before and after it); rasterising (`renderAsync`) and PNG compression
 * (encode-png.ts) run on libuv's thread pool, and they are the larger part.
 * Callers render off the request path (after the ack, after the digest's text is posted)
 * through the process's one renderer (chart-renderer.ts, built in app-deps.ts): worker
 * threads under a concurrency bound, so the Slack handlers and the outbox relay share one
 * limit and no chart holds the event loop an acknowledgement needs.
 */
import { createRequire } from 'node:module';
import { type ResvgRenderOptions, renderAsync } from '@resvg/resvg-js';
import { logger, None, parse, View } from 'vega';
import { compile } from 'vega-lite';
import type { ChartSpec } from './chart-spec.js';
import { encodePng, unpremultiply } from './encode-png.js';
import { ChartError, ChartErrorCode } from './errors.js';
import { FONT_FAMILY, PIXEL_RATIO } from './house-style.js';

export interface RenderedChart {
  png: Uint8Array;
  svg: string;
  /** Of the PNG, in pixels (the SVG's size times PIXEL_RATIO). */
  width: number;
  height: number;
  altText: string;
  fileName: string;
}

const FONT_FILES = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'];

let fontPaths: string[] | undefined;

/**
 * Absolute paths of the shipped fonts, resolved through Node's module resolution from
 * this file, so it works from src (tsx, vitest) and from dist alike.
 */
export function chartFontFiles(): string[] {
  if (fontPaths) return fontPaths;
  const require = createRequire(import.meta.url);
  try {
    fontPaths = FONT_FILES.map((file) => require.resolve(`dejavu-fonts-ttf/ttf/${file}`));
  } catch (cause) {
    throw new ChartError(
      ChartErrorCode.FontsMissing,
      'The chart fonts (dejavu-fonts-ttf) are not installed.',
      {
        cause,
      },
    );
  }
  return fontPaths;
}

/**
 * Vega and Vega-Lite warn on the console by default; a chart's warnings are not the log's
 * business (a failed render still throws and is reported as a ChartError).
 */
const quiet = logger(None);

/** The spec as SVG text (scale 1: the house size in SVG units). */
export async function renderChartSvg(spec: ChartSpec): Promise<string> {
  let view: View | undefined;
  try {
    const vega = compile(spec.vegaLite, { logger: quiet }).spec;
    view = new View(parse(vega), { renderer: 'none', logger: quiet });
    return await view.toSVG();
  } catch (cause) {
    throw new ChartError(ChartErrorCode.RenderFailed, `Could not draw the ${spec.kind} chart.`, { cause });
  } finally {
    view?.finalize();
  }
}

function resvgOptions(): ResvgRenderOptions {
  return {
    fitTo: { mode: 'zoom', value: PIXEL_RATIO },
    font: {
      loadSystemFonts: false,
      fontFiles: chartFontFiles(),
      defaultFontFamily: FONT_FAMILY,
      sansSerifFamily: FONT_FAMILY,
    },
    logLevel: 'off',
  };
}

/** Lets callbacks that are due (a request to acknowledge) run between two steps of a render. */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export async function renderChart(spec: ChartSpec): Promise<RenderedChart> {
  await yieldToEventLoop();
  const svg = await renderChartSvg(spec);
  await yieldToEventLoop();
  try {
    const image = await renderAsync(svg, resvgOptions());
    const png = await encodePng(unpremultiply(image.pixels), image.width, image.height);
    return {
      png,
      svg,
      width: image.width,
      height: image.height,
      altText: spec.altText,
      fileName: spec.fileName,
    };
  } catch (cause) {
    throw new ChartError(ChartErrorCode.RenderFailed, `Could not turn the ${spec.kind} chart into a PNG.`, {
      cause,
    });
  }
}
