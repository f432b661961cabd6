/**
 * Text every store can keep. Postgres refuses NUL (U+0000) in text and jsonb, and a lone
 * UTF-16 surrogate in jsonb; SQLite keeps both. Outside text (API responses, Slack, users)
 * is made well formed once, where it enters, so that what a job compares with the stored
 * state next run is exactly what was stored: a URL with a NUL kept as U+FFFD by Postgres
 * would otherwise never match the API's URL again, and be reported as lost and new on
 * every run. NUL and lone surrogates become U+FFFD, the character that stands for one that
 * could not be kept.
 */

const NUL = '\u0000';
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const REPLACEMENT = '\ufffd';

/** `text` without NUL or lone surrogates. */
function wellFormedText(text: string): string {
  return text.replaceAll(NUL, REPLACEMENT).replace(LONE_SURROGATE, REPLACEMENT);
}

/** `value` (parsed JSON) with every string, keys included, made well formed. */
export function wellFormedValue(value: unknown): unknown {
  if (typeof value === 'string') return wellFormedText(value);
  if (Array.isArray(value)) return value.map(wellFormedValue);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[wellFormedText(k)] = wellFormedValue(v);
    return out;
  }
  return value;
}

const ILL_FORMED_ESCAPE = /\\u(?:0000|d[89a-f])/i;

/**
 * JSON text can carry NUL or a lone surrogate only as a `\u0000` or `\uD800`–`\uDFFF`
 * escape (a raw control character is invalid JSON, and decoding UTF-8 never yields a lone
 * surrogate), so text without such an escape (nearly all of it) needs no cleaning; the
 * test costs one scan. A `\\u0000` (an escaped backslash) may match too: cleaning is then
 * merely unnecessary, never wrong.
 */
export function jsonTextMayBeIllFormed(text: string): boolean {
  // A plain search first: some thirty times faster than the pattern over a feed of a few
  // hundred kB, and hardly any response has a `\u` escape at all.
  return text.includes('\\u') && ILL_FORMED_ESCAPE.test(text);
}
