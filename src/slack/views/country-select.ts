/**
 * A country picker for modals. ISO 3166 has 249 countries and a static_select shows at
 * most 100 options, so they come in option groups by first letter (≤ 100 groups of ≤ 100),
 * which Slack's picker also makes searchable by typing.
 */

import { COUNTRIES, countryLabel, isCountryCode } from '../../countries.js';
import { escapeMrkdwn, type Mrkdwn, mrkdwn } from '../../messages/mrkdwn.js';
import { truncatePlain } from '../../messages/truncate-mrkdwn.js';

interface Option {
  text: { type: 'plain_text'; text: Mrkdwn };
  value: string;
}

const option = (code: string): Option => ({
  text: { type: 'plain_text', text: truncatePlain(escapeMrkdwn(countryLabel(code)), 75) },
  value: code,
});

function initialLetter(name: string): string {
  return name.normalize('NFKD').replace(/\p{M}/gu, '').charAt(0).toUpperCase();
}

const GROUPS = (() => {
  const byLetter = new Map<string, Option[]>();
  for (const c of COUNTRIES) {
    const letter = initialLetter(c.name);
    byLetter.set(letter, [...(byLetter.get(letter) ?? []), option(c.code)]);
  }
  return [...byLetter].map(([letter, options]) => ({
    label: { type: 'plain_text' as const, text: escapeMrkdwn(letter) },
    options,
  }));
})();

export function countrySelect(actionId: string, initialCode?: string | null) {
  const initial =
    initialCode && isCountryCode(initialCode.toUpperCase()) ? initialCode.toUpperCase() : undefined;
  return {
    type: 'static_select' as const,
    action_id: actionId,
    placeholder: { type: 'plain_text' as const, text: mrkdwn`Pick a country` },
    option_groups: GROUPS,
    ...(initial ? { initial_option: option(initial) } : {}),
  };
}
