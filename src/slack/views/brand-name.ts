/**
 * A brand name inside a sentence: escaped for mrkdwn and kept to 200 characters, so a
 * freak name cannot push the rest of the sentence (what happened, what to do) past a
 * Slack length limit.
 */
import { escapeMrkdwn, type Mrkdwn } from '../../messages/mrkdwn.js';
import { truncatePlain } from '../../messages/truncate-mrkdwn.js';

export function brandName(name: string): Mrkdwn {
  return escapeMrkdwn(truncatePlain(name, 200));
}
