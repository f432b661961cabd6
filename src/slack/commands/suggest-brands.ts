/**
 * The brands a type-ahead brand select offers for what has been typed so far, ranked the
 * way the resolver reads a name (resolve-brand.ts): an exact name, then an exact alias,
 * then names and aliases that start with the words, then those with a later word that
 * does ("analytics" finds Acme Analytics). Each suggestion says which alias matched, so a
 * person who typed "Acme ML" sees why "Acme Labs" is offered.
 */
import type { Brand } from '../../api/schemas/index.js';
import { foldBrandName } from './resolve-brand.js';

interface BrandSuggestion {
  brand: Brand;
  /** The alias that matched, when the brand's name did not. */
  alias?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Rank of one name against the folded query; undefined when it does not match. */
function rankName(name: string, wanted: string, isAlias: boolean): number | undefined {
  const folded = foldBrandName(name);
  const aliasStep = isAlias ? 1 : 0;
  if (folded === wanted) return 0 + aliasStep;
  if (folded.startsWith(wanted)) return 2 + aliasStep;
  if (folded.split(' ').some((word, i) => i > 0 && word.startsWith(wanted))) return 4 + aliasStep;
  return undefined;
}

export function suggestBrands(brands: readonly Brand[], query: string, max: number): BrandSuggestion[] {
  const wanted = foldBrandName(query);
  const byName = (a: BrandSuggestion, b: BrandSuggestion) =>
    a.brand.name.localeCompare(b.brand.name, 'en', { sensitivity: 'base' });
  if (wanted === '')
    return brands
      .map((brand) => ({ brand }))
      .sort(byName)
      .slice(0, max);
  if (UUID.test(wanted)) {
    return brands.filter((b) => b.id.toLowerCase() === wanted).map((brand) => ({ brand }));
  }
  const ranked: Array<BrandSuggestion & { rank: number }> = [];
  for (const brand of brands) {
    const nameRank = rankName(brand.name, wanted, false);
    let best = nameRank;
    let alias: string | undefined;
    for (const a of brand.aliases ?? []) {
      const rank = rankName(a, wanted, true);
      if (rank === undefined || (best !== undefined && rank >= best)) continue;
      best = rank;
      // The alias is named only when the name itself does not match what was typed.
      if (nameRank === undefined) alias = a;
    }
    if (best !== undefined) ranked.push({ brand, rank: best, ...(alias !== undefined ? { alias } : {}) });
  }
  ranked.sort((a, b) => a.rank - b.rank || byName(a, b));
  return ranked.slice(0, max).map(({ rank: _rank, ...s }) => s);
}
