/**
 * A brand name inside a sentence: escaped for mrkdwn and kept to 200 characters, so a
 * freak name cannot push the rest of the sentence (what happened, what to do) past a
 * Slack length limit.
 */
import { escapeMrkdwn, type Mrkdwn } from './mrkdwn.js';
import { truncatePlain } from './truncate-mrkdwn.js';

export function brandName(name: string): Mrkdwn {
  return escapeMrkdwn(truncatePlain(name, 200));
}
