import type { ActionHandler } from './action-handler.js';

/** The handler with the longest prefix that is the action_id or its `prefix:` start. */
export function findActionHandler(
  handlers: readonly ActionHandler[],
  actionId: string,
): ActionHandler | undefined {
  return handlers
    .filter((h) => actionId === h.prefix || actionId.startsWith(`${h.prefix}:`))
    .sort((a, b) => b.prefix.length - a.prefix.length)[0];
}
