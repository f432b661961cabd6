/** What the alert-owner tests look for in a message. */
import type { StoredMessage } from '../../src/dev/local-slack/index.js';

type Json = Record<string, unknown>;

/** The element of `message` whose action_id starts with `prefix`. */
export function elementOf(message: StoredMessage | undefined, prefix: string): Json | undefined {
  return ((message?.blocks ?? []) as Json[])
    .flatMap((b) => (b['elements'] as Json[] | undefined) ?? [])
    .find((e) => String(e['action_id'] ?? '').startsWith(prefix));
}
