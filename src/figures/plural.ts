/**
 * The few English rules messages get wrong when written with template strings: counted
 * nouns ("1 gap", "2 queries"), possessives of names ending in "s" ("Acme Analytics'"),
 * verbs that agree with one or several names. Every message builder takes them from here,
 * and a property test over the builders holds them to it (no "1 gaps", no "s's").
 */
import { countText } from './number-text.js';

/** Plurals the suffix rules below get wrong. */
const IRREGULAR: Readonly<Record<string, string>> = {
  person: 'people',
  child: 'children',
  analysis: 'analyses',
  criterion: 'criteria',
};

/** Words whose plural is the word itself. */
const UNCHANGED = new Set(['series', 'data', 'feedback', 'info', 'new']);

function pluralWord(word: string): string {
  const lower = word.toLowerCase();
  if (Object.hasOwn(IRREGULAR, lower)) {
    const plural = IRREGULAR[lower]!;
    return word[0] === word[0]!.toUpperCase() ? plural[0]!.toUpperCase() + plural.slice(1) : plural;
  }
  if (UNCHANGED.has(lower) || word === '' || !/[a-z]$/i.test(word)) return word;
  if (/[^aeiou]y$/i.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/i.test(word)) return `${word}es`;
  return `${word}s`;
}

/**
 * The plural of a noun or of a noun phrase's last word: "gap" → "gaps", "query" →
 * "queries", "cited page" → "cited pages", "search" → "searches".
 */
export function pluralOf(noun: string): string {
  const at = noun.lastIndexOf(' ');
  return at < 0 ? pluralWord(noun) : `${noun.slice(0, at + 1)}${pluralWord(noun.slice(at + 1))}`;
}

/** The word form for `count` things: agree(1, 'appears', 'appear') → "appears". */
export function agree(count: number, singular: string, plural: string): string {
  return count === 1 ? singular : plural;
}

/** "1 citation", "3 queries", "1,200 alerts"; the plural from `pluralOf` unless given. */
export function counted(count: number, noun: string, plural = pluralOf(noun)): string {
  return `${countText(count)} ${agree(count, noun, plural)}`;
}

/** The noun alone in the form `count` calls for: "gap" or "gaps". */
export function nounFor(count: number, noun: string, plural = pluralOf(noun)): string {
  return agree(count, noun, plural);
}

/** "Acme Analytics" → "Acme Analytics'", "Pendo" → "Pendo's" (names ending in s take a bare apostrophe). */
export function possessive(name: string): string {
  const trimmed = name.trimEnd();
  if (trimmed === '') return name;
  return /s$/i.test(trimmed) ? `${trimmed}'` : `${trimmed}'s`;
}

/** "Pendo", "Pendo and Rippling", "Pendo, Rippling and Gusto". */
export function nameList(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** Names with their verb: "Pendo appears", "Pendo and Rippling appear". */
export function namesWithVerb(names: readonly string[], singular: string, plural: string): string {
  return `${nameList(names)} ${agree(names.length, singular, plural)}`;
}

/** The text with its first letter upper-case: "mondays" → "Mondays". */
export function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
