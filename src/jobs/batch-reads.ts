/**
 * What a batch's writes read of every brand (brand-batch.ts): the first read of a kind
 * reads that kind for all the batch's brands, in one statement, in the batch's
 * transaction (so what the writes commit over is what they read), and the other brands'
 * writes take theirs from it. No brand's write changes another brand's rows, and the
 * level states a write leaves are written at the batch's end (BatchWrites.saveLevel), so
 * the one read serves them all.
 */
import type { CitationState } from '../alerts/detect-citations.js';
import { type ChannelDetectorStateRepo, levelKey } from '../store/channel-detector-state-repo.js';
import type { CitationStateRepo } from '../store/citation-state-repo.js';
import type { SnoozesRepo } from '../store/snoozes-repo.js';
import type { BatchWrites } from './job-definition.js';

/** The repositories the reads go to; a job's batch is given those its writes read. */
export interface BatchReadSources {
  levels?: Pick<ChannelDetectorStateRepo, 'crawlerLevelsOf' | 'aiPagesLevelsOf'> | undefined;
  snoozes?: Pick<SnoozesRepo, 'active' | 'activeOfBrands'> | undefined;
  citationStates?: Pick<CitationStateRepo, 'loadMany'> | undefined;
}

type BatchRead<T> = (key: string) => Promise<T | undefined>;

/** A read by key that reads every brand of the batch at its first call. */
function readOnce<T>(
  read: ((ids: readonly string[]) => Promise<Map<string, T>>) | undefined,
  brandIds: readonly string[],
  what: string,
): BatchRead<T> {
  let all: Promise<Map<string, T>> | undefined;
  return async (key) => {
    if (!read) throw new Error(`this batch was given no ${what} to read`);
    all ??= read(brandIds);
    return (await all).get(key);
  };
}

/** The reads of BatchWrites for a batch of `brandIds`. */
export function batchReads(
  o: BatchReadSources,
  brandIds: readonly string[],
): Pick<BatchWrites, 'crawlerLevel' | 'aiPagesLevel' | 'snoozes' | 'citationState'> {
  const { levels, snoozes, citationStates } = o;
  const crawler = readOnce(levels?.crawlerLevelsOf.bind(levels), brandIds, 'level state');
  const aiPages = readOnce(levels?.aiPagesLevelsOf.bind(levels), brandIds, 'level state');
  const states = readOnce<CitationState>(
    citationStates?.loadMany.bind(citationStates),
    brandIds,
    'citation state',
  );
  // Snoozes are read at the run's time; a read at another time (none in a run) asks alone.
  let snoozedAt: number | undefined;
  const snoozed = readOnce(
    snoozes && ((ids: readonly string[]) => snoozes.activeOfBrands(ids, snoozedAt!)),
    brandIds,
    'snoozes',
  );
  return {
    crawlerLevel: async (channelId, brandId) => (await crawler(levelKey(channelId, brandId))) ?? null,
    aiPagesLevel: async (channelId, brandId) => (await aiPages(levelKey(channelId, brandId))) ?? null,
    citationState: async (brandId) => (await states(brandId)) ?? new Map(),
    snoozes: {
      async active(channelId, brandId, nowMs) {
        snoozedAt ??= nowMs;
        if (snoozes && snoozedAt !== nowMs) return snoozes.active(channelId, brandId, nowMs);
        return (await snoozed(levelKey(channelId, brandId))) ?? new Map();
      },
    },
  };
}
