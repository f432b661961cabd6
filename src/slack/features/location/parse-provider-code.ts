/**
 * `location_provider_code` (docs/api.md §4.6): the numeric location code of an external
 * search-data provider. Such codes are positive whole numbers (e.g. 1023191).
 */
export function parseProviderCode(raw: string): number | undefined {
  const t = raw.trim();
  if (!/^\d+$/.test(t)) return undefined;
  const n = Number(t);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}
