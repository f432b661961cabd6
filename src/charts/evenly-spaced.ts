/**
 * At most `max` of `items`, spread evenly and always the first and the last: a long run
 * of days drawn as a chart of few points keeps the days its text names at each end, so
 * "23 → 26 over 30 days" beside it and the chart start and end on the same values.
 */
export function evenlySpaced<T>(items: readonly T[], max: number): T[] {
  const n = items.length;
  if (n <= max) return [...items];
  if (max <= 1) return items.slice(-1);
  return Array.from({ length: max }, (_, i) => items[Math.round((i * (n - 1)) / (max - 1))]!);
}
