/**
 * Alias lists as the API wants them: PUT /get-brands/aliases replaces the whole list
 * (API.md §4.7), so adding or removing one means sending the others too. Two spellings
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

/** What people type or paste: one alias per line, or comma-separated (both at once work). */
export function splitAliases(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((a) => a.trim())
    .filter((a) => a !== '');
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
