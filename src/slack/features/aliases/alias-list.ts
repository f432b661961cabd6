/**
 * Alias lists as the API wants them: PUT /get-brands/aliases replaces the whole list
 * (docs/api.md §4.7), so adding or removing one means sending the others too. Two spellings
 * that differ only in case, width or spacing are the same alias; the first one kept wins.
 */

/** The comparison key: "ACME  Inc" and "acme inc" are one alias. */
export function aliasKey(alias: string): string {
  return alias.normalize('NFKC').toLocaleLowerCase('en').replace(/\s+/g, ' ').trim();
}

/** Trimmed, inner spacing collapsed; empty entries dropped, first spelling of each kept. */
export function dedupeAliases(aliases: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of aliases) {
    const alias = raw.replace(/\s+/g, ' ').trim();
    const key = aliasKey(alias);
    if (key === '' || seen.has(key)) continue;
    seen.add(key);
    out.push(alias);
  }
  return out;
}

const OPENING_QUOTES: Readonly<Record<string, string>> = { '"': '"', "'": "'", '\u201C': '\u201D' };

/**
 * What people type or paste: one alias per line, or comma-separated (both at once work).
 * A name in quotes keeps its commas (`Initech, "Initech, Inc.", Rocket` is three aliases);
 * a quote only opens at the start of a name, so "Joe's Diner" is just an apostrophe.
 */
export function splitAliases(text: string): string[] {
  const out: string[] = [];
  let current = '';
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    const close = current.trim() === '' ? OPENING_QUOTES[ch] : undefined;
    const end = close === undefined ? -1 : text.indexOf(close, i + 1);
    if (end !== -1) {
      current = text.slice(i + 1, end);
      i = end + 1;
    } else if (ch === ',' || ch === '\n') {
      out.push(current);
      current = '';
      i += 1;
    } else {
      current += ch;
      i += 1;
    }
  }
  out.push(current);
  return out.map((a) => a.trim()).filter((a) => a !== '');
}

/** An alias is a name; longer than this it is a sentence pasted by mistake. */
export const ALIAS_MAX = 100;

/** The aliases in `after` but not in `before`, and the reverse, by alias key. */
export function aliasDiff(
  before: readonly string[],
  after: readonly string[],
): { added: string[]; removed: string[] } {
  const b = new Set(before.map(aliasKey));
  const a = new Set(after.map(aliasKey));
  return {
    added: after.filter((x) => !b.has(aliasKey(x))),
    removed: before.filter((x) => !a.has(aliasKey(x))),
  };
}
