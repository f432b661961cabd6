/**
 * "Did you mean …?" for subcommand names and brand names: case-insensitive edit distance,
 * with names that contain what was typed ranked first.
 */
function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const cur = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
    }
    prev = cur;
  }
  return prev[b.length]!;
}

interface ClosestOptions {
  max?: number;
  /** Candidates further than this (relative to the longer string) are not suggested. */
  maxRelativeDistance?: number;
}

export function closestMatches(
  typed: string,
  candidates: readonly string[],
  options: ClosestOptions = {},
): string[] {
  const t = typed.toLowerCase().trim();
  const { max = 3, maxRelativeDistance = 0.5 } = options;
  return candidates
    .map((name) => {
      const n = name.toLowerCase();
      // A fragment of a longer name ("northwind") is as close as it gets.
      // Otherwise compare with the whole name and with its start, so a typo in the first
      // word of "Globex Corporation" still finds it.
      const distance =
        t.length > 0 && n.includes(t)
          ? 0
          : Math.min(editDistance(t, n), editDistance(t, n.slice(0, t.length + 2)));
      return { name, distance, relative: distance / Math.max(t.length, 1) };
    })
    .filter((c) => c.relative <= maxRelativeDistance)
    .sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name))
    .slice(0, max)
    .map((c) => c.name);
}
