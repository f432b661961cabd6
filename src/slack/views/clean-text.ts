/**
 * Service text as Slack should get it: control characters dropped (they render as nothing
 * and cost six characters each once serialised) and lone surrogates (half of an emoji cut
 * by someone else's truncation) replaced by U+FFFD, which Slack shows as �.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Keeps the brand: dropping control characters cannot create markup. */
export function cleanText<T extends string>(text: T): T {
  return text.replace(CONTROL, '').replace(LONE_SURROGATE, '\uFFFD') as T;
}
