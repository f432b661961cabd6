/**
 * Brands committed together: the writes of a job's `prepareBrand` (job-definition.ts) are
 * queued and run, a batch at a time, in one transaction with each brand's success record;
 * the rows every brand writes (its poll observation, its channels' level states, its
 * crawler history, its changed citation URLs, its messages, its success) go in one
 * statement per kind for the batch, in that transaction, and what its writes read of
 * every brand (citation states, snoozes, level states: batch-reads.ts) is read in one
 * statement per kind too.
 * A brand's state, its outbox rows and its success commit together or not at all, so a
 * crash loses only the brands of the open batch, whole: the next run reads their old state
 * and writes their alerts then, once; the brands committed before are not alerted again.
 *
 * Batches commit one after another, in the order they filled. When a batch fails for any
 * reason but the database itself, its brands are written again one per transaction, so
 * one brand's bad data fails that brand alone, as it would have without batching.
 */

import type { BrandRef } from '../alerts/types.js';
import type { CitationStateRepo } from '../store/citation-state-repo.js';
import { isDatabaseUnavailable } from '../store/database-unavailable.js';
import type { NewOutboxMessage, OutboxRepo } from '../store/outbox-repo.js';
import type { StoreBackend } from '../store/store.js';
import type { RunInTransaction } from '../store/transaction.js';
import type { AlertSink, EnqueueCounts, MessageWriter } from '../use-cases/enqueue-alerts.js';
import { type BatchReadSources, batchReads } from './batch-reads.js';
import type { BatchRows, BatchWrites, BrandWrite } from './job-definition.js';

/**
 * Brands per transaction for the citations job, by backend: enough that commits stop
 * dominating a run, few enough that a transaction stays short (SQLite holds every other
 * store call of the process while one is open) and a crash redoes little. Each queued
 * brand also holds its fetched feed (hundreds of events) until its batch commits, so the
 * number sets the run's peak memory. On SQLite a commit is a local WAL append: four a
 * batch kept the alerts bench's peak some 15 MB lower than eight for the same CPU
 * (bench/alerts.ts). On Postgres every commit and every statement of a batch is a round
 * trip: four a batch cost that bench 0.3–0.4 s more CPU than eight, and 20 no less CPU
 * than eight but some 10 MB more.
 */
export const BRANDS_PER_COMMIT: Readonly<Record<StoreBackend, number>> = { sqlite: 4, postgres: 8 };

/**
 * Brands per transaction for the level jobs (crawler, AI Pages): a queued brand holds a
 * few kB and its writes take a fraction of a millisecond, so a batch of 32 still commits
 * within tens of milliseconds, with a quarter of the commits (each a few statements, and
 * on SQLite a WAL append) of batches of 8.
 */
export const LEVEL_BRANDS_PER_COMMIT = 32;

interface BrandBatchOptions {
  transaction: RunInTransaction;
  /** Where the brands' messages go: one statement for a batch of several brands, each alone for one. */
  outbox: Pick<OutboxRepo, 'enqueue' | 'enqueueMany'>;
  /** The brands' success records, written in their transaction, after their writes. */
  recordSuccesses(brandIds: string[]): Promise<void>;
  /** The rows the brands' writes left to the batch (BatchWrites), one statement per kind. */
  writeRows(rows: BatchRows): Promise<void>;
  /** Where BatchWrites' reads go (batch-reads.ts): each reads all the batch's brands at once. */
  levels?: BatchReadSources['levels'];
  snoozes?: BatchReadSources['snoozes'];
  citationStates?: BatchReadSources['citationStates'];
  committed(brand: BrandRef, counts: EnqueueCounts): void;
  /** A brand whose write failed on its own (not the database): the run goes on without it. */
  failed(brand: BrandRef, err: unknown): void;
  /** Brands a batch holds before it commits (BRANDS_PER_COMMIT, LEVEL_BRANDS_PER_COMMIT). */
  size: number;
}

/** `sink` with the batch's snooze reads and message writer: what a brand's write enqueues its alerts through. */
export const withBatchSink = (sink: AlertSink, batch: BatchWrites): AlertSink => ({
  ...sink,
  outbox: batch.outbox,
  snoozes: batch.snoozes,
});

/**
 * `repo` with the batch's citation state reads and writes: a brand's state read with every
 * brand's of the batch, and the URLs its run changed written with theirs.
 */
export const withBatchCitationState = (repo: CitationStateRepo, batch: BatchWrites): CitationStateRepo => ({
  ...repo,
  load: batch.citationState,
  async save(brandId, state, nowMs, urls) {
    if (urls === undefined) return repo.save(brandId, state, nowMs);
    const changed = new Set(urls);
    batch.saveCitationState({ brandId, state, nowMs, urls: changed });
    let held = 0;
    for (const url of changed) if (state.has(url)) held += 1;
    return held;
  },
});

/**
 * A batch's message writer: messages kept to be written together, each taken as new (the
 * batch checks that they all were, and otherwise writes its brands again one by one).
 */
function deferredMessages(): MessageWriter & { rows: NewOutboxMessage[] } {
  const rows: NewOutboxMessage[] = [];
  return {
    rows,
    async enqueue(m) {
      rows.push(m);
      return { created: true };
    },
  };
}

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

export function brandBatch(o: BrandBatchOptions): BrandBatch {
  const { size } = o;
  let queued: Queued[] = [];
  let last: Promise<void> = Promise.resolve();
  /** Brands handed to a commit that has not ended yet. */
  let committing = 0;

  /** The batch's writes in its transaction: each brand's, then the rows they left, then their successes. */
  const writeAll = async (items: Queued[]): Promise<EnqueueCounts[]> => {
    const out: EnqueueCounts[] = [];
    const rows: BatchRows = { observations: [], levels: [], histories: [], citationStates: [] };
    const messages = items.length > 1 ? deferredMessages() : null;
    const batch: BatchWrites = {
      observe: (row) => void rows.observations.push(row),
      saveLevel: (row) => void rows.levels.push(row),
      saveHistory: (row) => void rows.histories.push(row),
      saveCitationState: (row) => void rows.citationStates.push(row),
      outbox: messages ?? o.outbox,
      ...batchReads(
        o,
        items.map((item) => item.brand.id),
      ),
    };
    for (const item of items) out.push(await item.write(batch));
    await o.writeRows(rows);
    if (messages && (await o.outbox.enqueueMany(messages.rows)) < messages.rows.length)
      throw new Error('a message of the batch was in the outbox already');
    await o.recordSuccesses(items.map((item) => item.brand.id));
    return out;
  };

  const commit = async (items: Queued[]): Promise<void> => {
    try {
      const counts = await o.transaction(() => writeAll(items));
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
