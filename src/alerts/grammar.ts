/**
 * The few English rules alert and digest texts get wrong when written with template
 * strings: possessives of names ending in "s", verbs that agree with one or several
 * names, and counted nouns. Detectors and message builders share them so a brand reads the
 * same in an alert's sentence and in the message around it.
 */
import { formatCount } from './format-count.js';

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

/** The verb form for a subject of `count` things: agree(1, 'appears', 'appear') → "appears". */
export function agree(count: number, singular: string, plural: string): string {
  return count === 1 ? singular : plural;
}

/** Names with their verb: "Pendo appears", "Pendo and Rippling appear". */
export function namesWithVerb(names: readonly string[], singular: string, plural: string): string {
  return `${nameList(names)} ${agree(names.length, singular, plural)}`;
}

/** "1 citation", "3 citations", "2 alerts"; the plural defaults to the noun plus "s". */
export function counted(count: number, noun: string, plural = `${noun}s`): string {
  return `${formatCount(count)} ${agree(count, noun, plural)}`;
}
