/**
 * "Did you mean" for a country that did not resolve (src/countries.ts holds the countries
 * and the lookups; the wording for Slack is here).
 */

import { closestMatches } from '../../closest-matches.js';
import { COUNTRIES, type Country } from '../../countries.js';
import { escapeMrkdwn, joinMrkdwn, type Mrkdwn, mrkdwn } from '../../messages/mrkdwn.js';

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
