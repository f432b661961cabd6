/**
 * Coded errors of the chart layer. A chart is an extra next to a message that stands on
 * its own, so callers log these and send the text without the picture.
 */
export const ChartErrorCode = {
  /** Vega-Lite could not compile the spec or Vega could not draw it. */
  RenderFailed: 'chart_render_failed',
  /** The shipped fonts could not be found next to the installed packages. */
  FontsMissing: 'chart_fonts_missing',
} as const;
export type ChartErrorCode = (typeof ChartErrorCode)[keyof typeof ChartErrorCode];

export class ChartError extends Error {
  readonly code: ChartErrorCode;

  constructor(code: ChartErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? {} : { cause: options.cause });
    this.name = 'ChartError';
    this.code = code;
  }
}
