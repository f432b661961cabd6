/**
 * Brands committed together: the writes of a job's `prepareBrand` (job-definition.ts) are
 * queued and run, a batch at a time, in one transaction with each brand's success record;
 * the rows every brand writes (its poll observation, its channels' level states, its
 * crawler history, its success) go in one statement per kind for the batch, in that
 * transaction, and what its writes read of every brand (level states, snoozes) is read
 * in one statement per kind too.
 * A brand's state, its outbox rows and its success commit together or not at all, so a
 * crash loses only the brands of the open batch, whole: the next run reads their old state
 * and writes their alerts then, once; the brands committed before are not alerted again.
 *
 * Batches commit one after another, in the order they filled. When a batch fails for any
 * reason but the database itself, its brands are written again one per transaction, so
 * one brand's bad data fails that brand alone, as it would have without batching.
 */

import type { BrandRef } from '../alerts/types.js';
import { type ChannelDetectorStateRepo, levelKey } from '../store/channel-detector-state-repo.js';
import { isDatabaseUnavailable } from '../store/database-unavailable.js';
import { type SnoozesRepo, snoozeKey } from '../store/snoozes-repo.js';
import type { RunInTransaction } from '../store/transaction.js';
import type { AlertSink, EnqueueCounts } from '../use-cases/enqueue-alerts.js';
import type { BatchRows, BatchWrites, BrandWrite } from './job-definition.js';

/**
 * Brands per transaction: enough that commits stop dominating a run, few enough that a
 * transaction stays short (SQLite holds every other store call of the process while one
 * is open) and a crash redoes little. Each queued brand also holds its fetched feed until
 * its batch commits: at 20 the alerts bench peaked some 10 MB higher (V8 heap) than at 8,
 * for no less CPU (bench/alerts.ts).
 */
export const BRANDS_PER_COMMIT = 8;

/**
 * Brands per transaction for the level jobs (crawler, AI Pages): a queued brand holds a
 * few kB and its writes take a fraction of a millisecond, so a batch of 32 still commits
 * within tens of milliseconds, with a quarter of the commits (each a few statements, and
 * on SQLite a WAL append) of batches of 8.
 */
export const LEVEL_BRANDS_PER_COMMIT = 32;

interface BrandBatchOptions {
  transaction: RunInTransaction;
  /** The brands' success records, written in their transaction, after their writes. */
  recordSuccesses(brandIds: string[]): Promise<void>;
  /** The rows the brands' writes left to the batch (BatchWrites), one statement per kind. */
  writeRows(rows: BatchRows): Promise<void>;
  /** Where BatchWrites' level reads go: the batch's brands' states, one statement per detector. */
  levels?: Pick<ChannelDetectorStateRepo, 'crawlerLevelsOf' | 'aiPagesLevelsOf'>;
  /** Where BatchWrites' snooze reads go: the batch's brands' snoozes, one statement. */
  snoozes?: Pick<SnoozesRepo, 'active' | 'activeOfBrands'>;
  committed(brand: BrandRef, counts: EnqueueCounts): void;
  /** A brand whose write failed on its own (not the database): the run goes on without it. */
  failed(brand: BrandRef, err: unknown): void;
  size?: number;
}

/** `sink` with the batch's snooze reads: what a brand's write enqueues its alerts through. */
export const withBatchSnoozes = (sink: AlertSink, batch: BatchWrites): AlertSink => ({
  ...sink,
  snoozes: batch.snoozes,
});

export interface BrandBatch {
  /** Queues a brand's write; when that fills a batch, resolves once the batch is committed. */
  add(brand: BrandRef, write: BrandWrite): Promise<void>;
  /** Commits what is queued (the end of a run). Rejects only when the database cannot be used. */
  flush(): Promise<void>;
}

interface Queued {
  brand: BrandRef;
  write: BrandWrite;
}

/**
 * A batch's snooze reads (the alerts its brands write are held for them): the first read
 * reads the snoozes of all the batch's brands, at the run's time, in its transaction; the
 * others take theirs from it. A read at another time (none in a run) asks the repository.
 */
function snoozeReads(
  snoozes: BrandBatchOptions['snoozes'],
  brandIds: readonly string[],
): BatchWrites['snoozes'] {
  let read: { nowMs: number; all: Promise<Map<string, Map<string, number>>> } | undefined;
  return {
    async active(channelId, brandId, nowMs) {
      if (!snoozes) throw new Error('this batch was given no snoozes to read');
      read ??= { nowMs, all: snoozes.activeOfBrands(brandIds, nowMs) };
      if (read.nowMs !== nowMs) return snoozes.active(channelId, brandId, nowMs);
      return (await read.all).get(snoozeKey(channelId, brandId)) ?? new Map();
    },
  };
}

/**
 * A batch's level reads: the first read of a detector reads that detector's states of all
 * the batch's brands (in its transaction: the states its writes then commit over), the
 * others take theirs from it. No brand's write in the batch writes a level state before
 * the batch's rows are written, at its end (saveLevel), so the one read serves them all.
 */
function levelReads(
  levels: BrandBatchOptions['levels'],
  brandIds: readonly string[],
): Pick<BatchWrites, 'crawlerLevel' | 'aiPagesLevel'> {
  const from = <T>(read: ((ids: readonly string[]) => Promise<Map<string, T>>) | undefined) => {
    let states: Promise<Map<string, T>> | undefined;
    return async (channelId: string, brandId: string): Promise<T | null> => {
      if (!read) throw new Error('this batch was given no level state to read');
      states ??= read(brandIds);
      return (await states).get(levelKey(channelId, brandId)) ?? null;
    };
  };
  return {
    crawlerLevel: from(levels?.crawlerLevelsOf.bind(levels)),
    aiPagesLevel: from(levels?.aiPagesLevelsOf.bind(levels)),
  };
}

export function brandBatch(o: BrandBatchOptions): BrandBatch {
  const size = o.size ?? BRANDS_PER_COMMIT;
  let queued: Queued[] = [];
  let last: Promise<void> = Promise.resolve();
  /** Brands handed to a commit that has not ended yet. */
  let committing = 0;

  const commit = async (items: Queued[]): Promise<void> => {
    try {
      const counts = await o.transaction(async () => {
        const out: EnqueueCounts[] = [];
        const rows: BatchRows = { observations: [], levels: [], histories: [] };
        const batch: BatchWrites = {
          observe: (row) => void rows.observations.push(row),
          saveLevel: (row) => void rows.levels.push(row),
          saveHistory: (row) => void rows.histories.push(row),
          ...levelReads(
            o.levels,
            items.map((item) => item.brand.id),
          ),
          snoozes: snoozeReads(
            o.snoozes,
            items.map((item) => item.brand.id),
          ),
        };
        for (const item of items) out.push(await item.write(batch));
        await o.writeRows(rows);
        await o.recordSuccesses(items.map((item) => item.brand.id));
        return out;
      });
      for (const [i, item] of items.entries()) o.committed(item.brand, counts[i]!);
    } catch (err) {
      if (isDatabaseUnavailable(err)) throw err;
      if (items.length === 1) {
        o.failed(items[0]!.brand, err);
        return;
      }
      for (const item of items) await commit([item]);
    }
  };

  const flush = (): Promise<void> => {
    const items = queued;
    queued = [];
    committing += items.length;
    const run = last
      .then(() => (items.length > 0 ? commit(items) : undefined))
      .finally(() => {
        committing -= items.length;
      });
    // A batch the database refused is reported by its own promise; the next one still runs.
    last = run.catch(() => undefined);
    return run;
  };

  return {
    add(brand, write) {
      queued.push({ brand, write });
      if (queued.length >= size) return flush();
      // While a batch commits, a brand queued for the next one waits for it: the callers
      // (the runner's workers) then prepare no further brands meanwhile, so a slow commit
      // (each statement a round trip on Postgres) does not leave batch after batch of
      // fetched feeds waiting in memory.
      return committing > 0 ? last : Promise.resolve();
    },
    flush,
  };
}
