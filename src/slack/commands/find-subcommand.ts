import type { Subcommand } from './subcommand.js';

/** By name or alias, case-insensitively. */
export function findSubcommand(list: readonly Subcommand[], name: string): Subcommand | undefined {
  const wanted = name.toLowerCase();
  return list.find((s) => s.name === wanted || s.aliases?.some((a) => a.toLowerCase() === wanted));
}
