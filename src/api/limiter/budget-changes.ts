/**
 * What a persistence writes back after a decision: the difference between the state it
 * read and the state the decision returned, as a few plain operations every backend
 * applies the same way (SQLite statement by statement, Postgres in one statement).
 *
 * The operations never touch one row twice (Postgres runs them on one snapshot): a send
 * both moved and dropped is written as a new row, and sends dropped are never settled.
 */
import type { BucketRow, BudgetState, SendLog, SendRow } from './budget-state.js';

/** A time later than every send: "drop every send of the scope". */
export const ALL_SENDS_MS = Number.MAX_SAFE_INTEGER;

export interface BudgetChanges {
  /** The bucket's new row, or undefined when unchanged. */
  bucket: BucketRow | undefined;
  /** The day's count to store; `dropEarlierDays` on the first count of a day. */
  daily: { day: string; count: number; dropEarlierDays: boolean } | undefined;
  /** Pauses to store, scope → epoch ms. */
  pauses: [scope: string, untilMs: number][];
  /** Stored sends moved to `atMs` and marked settled. */
  settles: { id: number; atMs: number }[];
  /** Stored sends of `scope` at or before `throughMs` to delete. */
  drops: { scope: string; throughMs: number }[];
  /** New sends. */
  adds: { scope: string; atMs: number; settled: boolean }[];
}

export interface Decision<R> {
  result: R;
  /** The budget after the decision (the state it read when nothing changed). */
  state: BudgetState;
  /** What the persistence writes back. */
  changes: BudgetChanges;
}

export function isUnchanged(c: BudgetChanges): boolean {
  return !c.bucket && !c.daily && c.pauses.length + c.settles.length + c.drops.length + c.adds.length === 0;
}

export function budgetChanges(before: BudgetState, after: BudgetState): BudgetChanges {
  const changes: BudgetChanges = {
    bucket: after.bucket !== before.bucket && after.bucket ? after.bucket : undefined,
    daily: undefined,
    pauses: [...after.pauses].filter(([scope, until]) => before.pauses.get(scope) !== until),
    settles: [],
    drops: [],
    adds: [],
  };
  if (after.daily !== before.daily) {
    const countBefore = before.daily.day === after.daily.day ? before.daily.count : 0;
    // Earlier days' counts are of no further use once a day has its first.
    changes.daily = { ...after.daily, dropEarlierDays: countBefore === 0 };
  }
  for (const [scope, log] of after.sends) {
    const read = before.sends.get(scope);
    if (log !== read) sendChanges(scope, read?.rows ?? [], log, changes);
  }
  return changes;
}

function sendChanges(scope: string, read: readonly SendRow[], log: SendLog, changes: BudgetChanges): void {
  const dropThrough = log.dropThroughMs ?? Number.NEGATIVE_INFINITY;
  if (log.dropThroughMs !== undefined) {
    changes.drops.push({ scope, throughMs: Math.min(log.dropThroughMs, ALL_SENDS_MS) });
  }
  const stored = new Map<number, SendRow>();
  for (const r of read) if (r.id !== undefined) stored.set(r.id, r);
  for (const row of log.rows) {
    const was = row.id === undefined ? undefined : stored.get(row.id);
    if (row.id !== undefined) stored.delete(row.id);
    // A send the drop deletes but the decision keeps (moved past the drop) is written anew.
    if (!was || was.atMs <= dropThrough) {
      changes.adds.push({ scope, atMs: row.atMs, settled: row.settled !== false });
    } else if (was.atMs !== row.atMs || was.settled !== row.settled) {
      if (!row.settled) throw new Error('A decision may only settle a stored send, never unsettle it.');
      changes.settles.push({ id: row.id!, atMs: row.atMs });
    }
  }
  for (const gone of stored.values()) {
    if (gone.atMs > dropThrough) throw new Error('A decision removed a send without dropping its time.');
  }
}
