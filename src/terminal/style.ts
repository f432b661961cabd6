/**
 * Terminal styling for what the CLI prints (`check`'s lines, the demo console). With
 * colour off every function returns its text unchanged, so CI logs and piped output stay
 * plain and readable. Product code, outside the dev kit, because `check` uses it too.
 */
export interface Style {
  readonly color: boolean;
  bold(s: string): string;
  italic(s: string): string;
  strike(s: string): string;
  code(s: string): string;
  /** A line of a preformatted (```) block. */
  pre(s: string): string;
  dim(s: string): string;
  /**
   * A link's text; with `url`, on a colour terminal, a hyperlink to it (OSC 8, the escape
   * most terminals honour), so the label shows once, as Slack shows it.
   */
  link(s: string, url?: string): string;
  heading(s: string): string;
  good(s: string): string;
  bad(s: string): string;
  accent(s: string): string;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control bytes are exactly what a hyperlink's URL must not hold.
const CONTROL = /[\x00-\x1f\x7f]/;

const wrap = (open: number, close: number) => (s: string) => `\x1b[${open}m${s}\x1b[${close}m`;

export function createStyle(color: boolean): Style {
  if (!color) {
    const id = (s: string) => s;
    return {
      color,
      bold: id,
      italic: id,
      // Without colour, markers that carry meaning stay visible.
      strike: (s) => `~${s}~`,
      code: (s) => `\`${s}\``,
      pre: id,
      dim: id,
      link: id,
      heading: (s) => `=== ${s} ===`,
      good: id,
      bad: id,
      accent: id,
    };
  }
  const bold = wrap(1, 22);
  const underline = wrap(4, 24);
  return {
    color,
    bold,
    italic: wrap(3, 23),
    strike: wrap(9, 29),
    code: wrap(36, 39),
    pre: wrap(36, 39),
    dim: wrap(2, 22),
    // The URL is control-free (a C0 or DEL byte would end the sequence early); else just the label.
    link: (s, url) =>
      url === undefined || CONTROL.test(url)
        ? underline(s)
        : `\x1b]8;;${url}\x1b\\${underline(s)}\x1b]8;;\x1b\\`,
    heading: (s) => bold(underline(s)),
    good: wrap(32, 39),
    bad: wrap(31, 39),
    accent: wrap(33, 39),
  };
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: ESC is exactly what ANSI sequences start with.
const ANSI = /\x1b\[[0-9;]*m|\x1b\]8;;[^\x1b]*\x1b\\/g;

/** Text without ANSI sequences (to measure columns, and for tests). */
export function stripAnsi(s: string): string {
  return s.replace(ANSI, '');
}

/** Emoji drawn as pictures (⭐, 🟢 …), which terminals give two columns. */
const WIDE_EMOJI = /\p{Emoji_Presentation}/u;

/** Width on screen in columns, ANSI sequences excluded, a pictured emoji counted as two. */
export function visibleWidth(s: string): number {
  let width = 0;
  for (const ch of stripAnsi(s)) width += WIDE_EMOJI.test(ch) ? 2 : 1;
  return width;
}
