/**
 * Text and JSON as Postgres accepts them. Postgres refuses NUL (U+0000) in text and in
 * jsonb, and jsonb also refuses a lone UTF-16 surrogate written as a `\uD8xx` escape, where
 * SQLite stores both. Text from the API, Slack or users (brand names, URLs, error details)
 * goes through these before it is written, so one odd character cannot make the write fail
 * (and with it a job's whole transaction): NUL and lone surrogates become U+FFFD, the
 * character that stands for one that could not be kept. Text columns need only the NUL
 * rule: pg encodes parameters as UTF-8, which already replaces a lone surrogate.
 */

import { wellFormedValue } from '../../well-formed-text.js';

const NUL = '\u0000';
const REPLACEMENT = '\ufffd';

/** `text` with every NUL replaced by U+FFFD, for a text column. */
export function pgText(text: string): string;
export function pgText(text: string | null): string | null;
export function pgText(text: string | null): string | null {
  return text?.includes(NUL) ? text.replaceAll(NUL, REPLACEMENT) : text;
}

/**
 * `value` as JSON text for a jsonb parameter, with NUL and lone surrogates in any string
 * (keys included) replaced by U+FFFD.
 */
export function pgJson(value: unknown): string {
  return pgJsonText(JSON.stringify(value));
}

/**
 * The same for JSON text another module already wrote (a packed state). JSON.stringify
 * writes NUL and lone surrogates as `\u` escapes and nothing else Postgres refuses, so text
 * without any `\u` (nearly all of it) goes as it is, at the cost of one substring search;
 * otherwise the strings are cleaned and it is written again. Cleaning the parsed strings
 * rather than the text means `\\u0000` (a backslash and "u0000") is never mistaken for an
 * escape.
 */
export function pgJsonText(text: string): string {
  return text.includes('\\u') ? JSON.stringify(wellFormedValue(JSON.parse(text))) : text;
}
