/**
 * What a job's `select` reads of every brand of the run at once (one statement a kind
 * instead of one per brand), taken by each brand's run when it is prepared. Only the job
 * writes what is read ahead, under its lease, so it holds for the run; a brand the run did
 * not select, or whose entry was taken already, reads its own.
 */
import type { JobContext } from './job-context.js';

export interface ReadAhead<T> {
  /** The run's entries, one per brand it selected. */
  keep(ctx: JobContext, byBrand: Map<string, T>): void;
  /** The brand's entry, once; otherwise what `alone` reads. */
  take(ctx: JobContext, brandId: string, alone: () => Promise<T>): Promise<T>;
}

export function readAhead<T>(): ReadAhead<T> {
  const runs = new WeakMap<JobContext, Map<string, T>>();
  return {
    keep: (ctx, byBrand) => void runs.set(ctx, byBrand),
    async take(ctx, brandId, alone) {
      const byBrand = runs.get(ctx);
      if (!byBrand?.has(brandId)) return alone();
      const entry = byBrand.get(brandId) as T;
      byBrand.delete(brandId);
      return entry;
    },
  };
}

/** One entry per brand of `brandIds`, made by `entryOf`. */
export const byBrand = <T>(brandIds: Iterable<string>, entryOf: (brandId: string) => T): Map<string, T> =>
  new Map([...brandIds].map((id) => [id, entryOf(id)]));
