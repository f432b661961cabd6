import type { Mrkdwn } from '../../messages/mrkdwn.js';
import { truncatePlain } from '../../messages/truncate-mrkdwn.js';

/**
 * A reply's plain-text fallback (notifications, clients without blocks): one readable
 * sentence, never the whole data. Service data can make it long, so it is bounded well
 * under the 4000 characters Slack recommends. Slack uses this text for notifications, so
 * it takes only escaped text: a `<!channel>` in a page title must not ping anyone.
 */
export function fallbackText(text: Mrkdwn): Mrkdwn {
  return truncatePlain((text.replace(/\s+/g, ' ').trim() || 'Brand Visibility') as Mrkdwn, 1000);
}
