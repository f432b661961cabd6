/**
 * docs/api.md gives rates such as `coverage_rate` and `your_coverage` as a bare "number"
 * without saying whether 0.4 or 40 means 40 %. Read a set of rates together: when every one
 * lies within 0–1 and at least one is fractional, they are fractions.
 */
export function percentScale(values: readonly number[]): number {
  const finite = values.filter((v) => Number.isFinite(v));
  if (finite.length === 0) return 1;
  const fractions = finite.every((v) => v >= 0 && v <= 1) && finite.some((v) => !Number.isInteger(v));
  return fractions ? 100 : 1;
}
