/**
 * Polls until `predicate` returns a truthy value (for tests waiting on asynchronous effects
 * such as a respond() landing after the ack). Uses real timers on purpose: an injected test
 * clock may never advance while a test waits.
 */
import { setTimeout as delay } from 'node:timers/promises';

const POLL_MS = 5;

export async function waitFor<T>(predicate: () => T | undefined | false, timeoutMs = 2000): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = predicate();
    if (value !== undefined && value !== false && value !== null) return value;
    if (performance.now() >= deadline)
      throw new Error(`local Slack: condition not met within ${timeoutMs} ms`);
    await delay(POLL_MS);
  }
}
