/**
 * Waits until nothing new reaches the local Slack (no Web API call, no response_url post)
 * for `quietMs`, or `maxMs` passed: how the console catches follow-up updates.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { LocalSlack } from '../local-slack/index.js';

const POLL_MS = 20;

export async function waitForQuiet(slack: LocalSlack, quietMs: number, maxMs: number): Promise<void> {
  const count = () => slack.responses.length + slack.calls.length;
  const started = performance.now();
  let last = count();
  let lastChange = started;
  for (;;) {
    const now = performance.now();
    if (now - lastChange >= quietMs || now - started >= maxMs) return;
    await delay(POLL_MS);
    const current = count();
    if (current !== last) {
      last = current;
      lastChange = performance.now();
    }
  }
}
