import { truncatePlain } from './truncate-mrkdwn.js';

/**
 * A reply's plain-text fallback (notifications, clients without blocks): one readable
 * sentence, never the whole data. Service data can make it long, so it is bounded well
 * under the 4000 characters Slack recommends.
 */
export function fallbackText(text: string): string {
  return truncatePlain(text.replace(/\s+/g, ' ').trim() || 'Brand Visibility', 1000);
}
