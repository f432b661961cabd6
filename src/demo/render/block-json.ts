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

/** A text object (`{type: 'plain_text'|'mrkdwn', text}`), or a bare string. */
export function textObject(value: unknown): { text: string; mrkdwn: boolean } | undefined {
  if (typeof value === 'string') return { text: value, mrkdwn: false };
  const o = rec(value);
  const text = str(o?.['text']);
  return text === undefined ? undefined : { text, mrkdwn: o?.['type'] === 'mrkdwn' };
}

/** The plain words of a text object (labels, titles, option texts). */
export function plainOf(value: unknown): string {
  return textObject(value)?.text ?? '';
}
