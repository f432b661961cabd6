/**
 * Small statistics the benchmarks print: nearest-rank percentiles and order inversions.
 */

/** Nearest-rank percentile (p in 0–100); NaN for no values. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/**
 * Pairs (i, j) with i before j in `items` whose keys are in the opposite order (ties are
 * not inversions). `sameGroup`, when given, restricts the count to pairs it accepts.
 */
export function inversions<T>(
  items: readonly T[],
  key: (item: T) => number,
  sameGroup: (a: T, b: T) => boolean = () => true,
): Array<[T, T]> {
  const out: Array<[T, T]> = [];
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) {
      const a = items[i]!;
      const b = items[j]!;
      if (key(a) > key(b) && sameGroup(a, b)) out.push([a, b]);
    }
  }
  return out;
}
