/** What the console remembers between lines. */
import type { ActivityMark } from './activity-mark.js';
import type { Clickable } from './render/render-context.js';

export type ClickTarget =
  | { kind: 'message'; channelId: string; messageTs: string }
  | { kind: 'view'; viewId: string };

export interface ShownClickable extends Clickable {
  target: ClickTarget;
}

export interface ConsoleState {
  /** The clickables last shown, `:click 1` first. */
  clickables: ShownClickable[];
  /** Slack activity up to here has been shown. */
  shownUpTo: ActivityMark;
  /** The modal `:submit` goes to. */
  modalId: string | undefined;
  /** Channel of each response_url the console handed out (its replies land there). */
  responseUrlChannels: Map<string, string>;
  /** Brands staged with `:usage` / `:traffic`: `:jobs` names those no channel is subscribed to. */
  staged: Set<string>;
}

export function createConsoleState(shownUpTo: ActivityMark): ConsoleState {
  return {
    clickables: [],
    shownUpTo,
    modalId: undefined,
    responseUrlChannels: new Map(),
    staged: new Set(),
  };
}
