/**
 * A URL as a Slack link labelled with its title, or as plain text when it cannot be a
 * link: not http(s), or so long that the link markup would eat the section's room.
 */

import { escapeMrkdwn, type Mrkdwn, mrkdwnLink, safeLinkUrl } from '../../messages/mrkdwn.js';
import { truncatePlain } from '../../messages/truncate-mrkdwn.js';
import { cleanText } from './clean-text.js';

const MAX_LINKED_URL = 500;

export function linkOrText(url: string, label?: string | null, maxLabel = 90): Mrkdwn {
  const shown = truncatePlain(cleanText((label ?? '').trim()) || cleanText(url), maxLabel);
  const href = safeLinkUrl(url);
  if (href !== undefined && href.length <= MAX_LINKED_URL) return mrkdwnLink(cleanText(url), shown);
  return escapeMrkdwn(shown);
}

/** Service text for a mrkdwn line: cleaned, escaped, on one line, at most `max` characters. */
export function inlineText(text: string | null | undefined, max = 200): Mrkdwn {
  return escapeMrkdwn(
    truncatePlain(
      cleanText(String(text ?? ''))
        .replace(/\s+/g, ' ')
        .trim(),
      max,
    ),
  );
}
