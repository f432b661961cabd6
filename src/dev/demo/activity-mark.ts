/** A bookmark in what the local Slack has seen, to show only what came after it. */
import type { LocalSlack } from '../local-slack/index.js';

export interface ActivityMark {
  responses: number;
  calls: number;
}

export function markActivity(slack: LocalSlack): ActivityMark {
  return { responses: slack.responses.length, calls: slack.calls.length };
}
