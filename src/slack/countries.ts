/**
 * Countries as people type them in Slack: an ISO-2 code (de), the alias UK, a full name in
 * any case and with or without accents ("cote d'ivoire"), or a formal ISO name. API.md
 * §4.6 accepts all three forms for the location; the markets endpoint takes ISO-2 only, so
 * everything is resolved to a code here first and an unknown word gets a "did you mean".
 */

import { escapeMrkdwn, joinMrkdwn, type Mrkdwn, mrkdwn } from '../messages/mrkdwn.js';
import { closestMatches } from './closest-matches.js';
import { COUNTRY_ALIASES, COUNTRY_NAMES } from './country-table.js';

export interface Country {
  /** ISO 3166-1 alpha-2, upper case */
  code: string;
  name: string;
}

/** Case, accents, "the" and spacing do not matter: "The Netherlands" = "netherlands". */
function fold(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[’‘`]/g, "'")
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^the /, '');
}

export const COUNTRIES: readonly Country[] = Object.entries(COUNTRY_NAMES)
  .map(([code, name]) => ({ code, name }))
  .sort((a, b) => a.name.localeCompare(b.name, 'en'));

const BY_FOLDED_NAME: ReadonlyMap<string, string> = new Map([
  ...Object.entries(COUNTRY_ALIASES).map(([alias, code]) => [fold(alias), code] as const),
  // Short names last, so they win over an alias spelled the same way.
  ...Object.entries(COUNTRY_NAMES).map(([code, name]) => [fold(name), code] as const),
]);

export function isCountryCode(code: string): boolean {
  return Object.hasOwn(COUNTRY_NAMES, code);
}

/** The short name of an ISO-2 code; the code itself when it is not in the table. */
export function countryName(code: string): string {
  const upper = code.toUpperCase();
  return COUNTRY_NAMES[upper] ?? upper;
}

/** "Germany (DE)" */
export function countryLabel(code: string): string {
  const upper = code.toUpperCase();
  const name = COUNTRY_NAMES[upper];
  return name ? `${name} (${upper})` : upper;
}

export function resolveCountry(input: string): Country | undefined {
  const trimmed = input.trim();
  if (trimmed === '') return undefined;
  const upper = trimmed.toUpperCase();
  if (/^[A-Z]{2}$/.test(upper) && isCountryCode(upper)) return { code: upper, name: COUNTRY_NAMES[upper]! };
  const code = BY_FOLDED_NAME.get(fold(trimmed));
  return code ? { code, name: COUNTRY_NAMES[code]! } : undefined;
}

/** Closest country names to something that did not resolve, best first. */
export function suggestCountries(input: string, max = 3): Country[] {
  const names = COUNTRIES.map((c) => c.name);
  return closestMatches(input, names, { max }).map((name) => COUNTRIES.find((c) => c.name === name)!);
}

/** "Germany (DE)", "Germany (DE) or Georgia (GE)" … for a "did you mean". */
export function didYouMeanCountry(input: string): Mrkdwn {
  const close = suggestCountries(input);
  if (close.length === 0)
    return mrkdwn`Use an ISO-2 code such as DE or GB, the alias UK, or a full name such as Germany.`;
  return mrkdwn`Did you mean ${joinMrkdwn(
    close.map((c) => mrkdwn`*${escapeMrkdwn(c.name)}* (${escapeMrkdwn(c.code)})`),
    mrkdwn` or `,
  )}?`;
}
