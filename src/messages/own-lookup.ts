/**
 * A table lookup by a key that comes from the service or a user: only the table's own
 * entries count, so `constructor` or `valueOf` finds nothing rather than a function.
 */
export function ownLookup<V>(table: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
