/** Reading Block Kit JSON as it crossed the wire: untyped, so every field is checked. */
export type Json = Record<string, unknown>;

export function rec(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/**
 * Slack's three entities as the reader sees them. The bot escapes plain_text as well as
 * mrkdwn, and Slack shows `&lt;` as `<` in both; mrkdwn is decoded by its own renderer,
 * after its markup is read.
 */
export const decodeEntities = (s: string): string =>
  s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** A text object (`{type: 'plain_text'|'mrkdwn', text}`), or a bare string; plain text decoded. */
export function textObject(value: unknown): { text: string; mrkdwn: boolean } | undefined {
  if (typeof value === 'string') return { text: decodeEntities(value), mrkdwn: false };
  const o = rec(value);
  const text = str(o?.['text']);
  if (text === undefined) return undefined;
  const mrkdwn = o?.['type'] === 'mrkdwn';
  return { text: mrkdwn ? text : decodeEntities(text), mrkdwn };
}

/** The plain words of a text object (labels, titles, option texts). */
export function plainOf(value: unknown): string {
  return textObject(value)?.text ?? '';
}
