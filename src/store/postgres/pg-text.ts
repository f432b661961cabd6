/**
 * Postgres refuses the NUL character in text and jsonb (SQLite stores it). Text from the
 * API, Slack or users goes through these before it is written, so a stray NUL in a brand
 * name or an error message cannot make the write fail; it becomes U+FFFD, the character
 * that stands for one that could not be kept.
 */

/** `text` with every NUL replaced by U+FFFD. */
export function pgText(text: string): string;
export function pgText(text: string | null): string | null;
export function pgText(text: string | null): string | null {
  return text === null || !text.includes('\u0000') ? text : text.replaceAll('\u0000', '\uFFFD');
}

/**
 * `value` as JSON text for a jsonb parameter, with NUL in any string (keys included)
 * replaced by U+FFFD. JSON.stringify writes NUL as the escape `\u0000`; only an escape
 * preceded by an even number of backslashes is one (`\\u0000` is a backslash and "u0000").
 */
export function pgJson(value: unknown): string {
  const json = JSON.stringify(value);
  return json.includes('\\u0000') ? json.replace(/(?<=(?:^|[^\\])(?:\\\\)*)\\u0000/g, '\\ufffd') : json;
}
