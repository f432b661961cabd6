/** The simulator's seed brands, and how console lines name them (key, name or its start). */
import { SEED_BRANDS, type SeedBrandRef } from '../simulator/index.js';

export interface DemoBrand extends SeedBrandRef {
  /** The simulator's seed key, e.g. `acme`. */
  key: string;
}

export const DEMO_BRANDS: readonly DemoBrand[] = Object.entries(SEED_BRANDS).map(([key, b]) => ({
  key,
  id: b.id,
  name: b.name,
}));

/** By seed key, id, full name, or an unambiguous start of the name (case-insensitive). */
export function resolveDemoBrand(token: string): DemoBrand | undefined {
  const t = token.trim().toLowerCase();
  if (!t) return undefined;
  const exact = DEMO_BRANDS.find(
    (b) => b.key.toLowerCase() === t || b.id === t || b.name.toLowerCase() === t,
  );
  if (exact) return exact;
  const starts = DEMO_BRANDS.filter((b) => b.name.toLowerCase().startsWith(t));
  return starts.length === 1 ? starts[0] : undefined;
}
