/**
 * Prose shortened at a word boundary. "allow it if you wa…" tells a reader nothing and
 * looks broken; "allow it if you…" reads as a shortened sentence. Cut plain text, then
 * escape it: a cut at a space can never split an entity or a link, which have none. A
 * single word longer than the room (a URL, a token) is cut where it must be.
 */
import { ELLIPSIS, truncatePlain } from '../../messages/truncate-mrkdwn.js';

/** Words are not dropped back past this share of the room: a half-empty line is worse. */
const MIN_KEPT_SHARE = 0.5;

/**
 * Punctuation a cut leaves dangling before the "…". A semicolon that ends an escaped
 * entity (`&amp;`) is part of the text, not punctuation: dropping it would leave a bare `&`.
 */
const TRAILING_PUNCTUATION = /(?:[\s,:–—-]|(?<!&(?:[a-z]{2,8}|#\d{1,7}|#x[0-9a-f]{1,6}));)+$/i;

export function cutAtWord<T extends string>(text: T, max: number): T {
  if (text.length <= max) return text;
  const room = max - ELLIPSIS.length;
  if (room <= 0) return truncatePlain(text, max);
  // The cut falls on a space: the word before it is whole.
  if (/\s/.test(text[room] ?? '')) return `${text.slice(0, room).trimEnd()}${ELLIPSIS}` as T;
  const space = text.slice(0, room).search(/\s\S*$/);
  if (space >= room * MIN_KEPT_SHARE) {
    return `${text.slice(0, space).replace(TRAILING_PUNCTUATION, '')}${ELLIPSIS}` as T;
  }
  return truncatePlain(text, max);
}
