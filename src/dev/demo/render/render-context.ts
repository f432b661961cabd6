/**
 * What rendering collects besides lines: every clickable element (buttons, options of
 * message selects and overflow menus), numbered in order so `:click N` can press it.
 */
import type { Style } from '../../../terminal/style.js';
import type { TokenContext } from '../../../terminal/token-context.js';

export interface ConfirmDialog {
  title: string;
  /** In terminal styling already. */
  text: string;
  confirm: string;
  deny: string;
}

export interface Clickable {
  /** What the console shows after the number, e.g. `Details` or `Period ▸ Last 30 days`. */
  label: string;
  actionId: string;
  blockId: string | undefined;
  value: string | undefined;
  /** For a select or overflow option: the option's value. */
  selectedOption: string | undefined;
  /** Link buttons open this in a browser (Slack still sends the action). */
  url: string | undefined;
  confirm: ConfirmDialog | undefined;
}

export interface RenderOptions {
  style: Style;
  /** Number of the first clickable; default 1. */
  firstNumber?: number;
  /** Width to wrap rows of buttons at; default 100. */
  width?: number;
  /** Names and the time zone for mentions and dates; without it they show their fallback. */
  tokens?: TokenContext | undefined;
}

export interface Rendered {
  lines: string[];
  clickables: Clickable[];
}

export interface RenderContext {
  readonly style: Style;
  readonly width: number;
  readonly tokens: TokenContext | undefined;
  readonly clickables: Clickable[];
  /** Registers a clickable and returns its `[N]` tag. */
  add(c: Clickable): string;
}

export function createRenderContext(options: RenderOptions): RenderContext {
  const clickables: Clickable[] = [];
  const first = options.firstNumber ?? 1;
  return {
    style: options.style,
    width: options.width ?? 100,
    tokens: options.tokens,
    clickables,
    add(c) {
      clickables.push(c);
      return `[${first + clickables.length - 1}]`;
    },
  };
}
