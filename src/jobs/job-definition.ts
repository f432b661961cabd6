/**
 * The shape of the four jobs. The runner (run-job-once.ts) does everything they share: the
 * lease, the run record, one brand at a time with the API called once per brand, error
 * handling and health; a job only says which subscriptions it serves and what one brand's
 * run does.
 */

import type { AiPagesState } from '../alerts/detect-ai-pages.js';
import type { CitationState } from '../alerts/detect-citations.js';
import type { CrawlerState } from '../alerts/detect-crawler.js';
import type { BrandRef } from '../alerts/types.js';
import type { LevelStateRow } from '../store/channel-detector-state-repo.js';
import type { CitationStateSave } from '../store/citation-state-repo.js';
import type { CrawlerHistoryRow } from '../store/crawler-history-repo.js';
import type { PollObservationRow } from '../store/poll-observations-repo.js';
import type { SnoozesRepo } from '../store/snoozes-repo.js';
import type { Subscription } from '../store/subscriptions-repo.js';
import type { EnqueueCounts, MessageWriter } from '../use-cases/enqueue-alerts.js';
import type { JobName } from '../use-cases/job-names.js';
import type { JobContext } from './job-context.js';

export interface JobRunInfo {
  nowMs: number;
  /** run-job: post digests whatever the hour (poll intervals are the scheduler's business). */
  force: boolean;
  /**
   * Digests due within this long are prepared now and posted at their time (the
   * scheduler); absent or 0: only digests already due (run-job posts at once).
   */
  digestLeadMs?: number;
}

/** The rows the brands of a batch left to it (BatchWrites), written one statement per kind. */
export interface BatchRows {
  observations: PollObservationRow[];
  levels: LevelStateRow[];
  histories: CrawlerHistoryRow[];
  citationStates: CitationStateSave[];
}

/**
 * What a brand's write may leave to its batch: rows every brand of a job writes, which the
 * batch writes for all its brands in one statement per kind, in the same transaction,
 * before it commits (brand-batch.ts). Nothing in the batch reads them back before then.
 */
export interface BatchWrites {
  /** The brand's poll observation (as PollObservationsRepo.put would write it). */
  observe(row: PollObservationRow): void;
  /** A channel's new level state for the brand (as ChannelDetectorStateRepo.putCrawler/putAiPages). */
  saveLevel(row: LevelStateRow): void;
  /** The brand's crawler history (as CrawlerHistoryRepo.write). */
  saveHistory(row: CrawlerHistoryRow): void;
  /**
   * The brand's citation state after its run, with the URLs the run changed (as
   * CitationStateRepo.save with `urls`, the state read by `citationState` before).
   */
  saveCitationState(row: CitationStateSave): void;
  /**
   * A channel's crawler state for a brand of the batch (as ChannelDetectorStateRepo.getCrawler),
   * read in the batch's transaction with every brand's of the batch, in one statement.
   */
  crawlerLevel(channelId: string, brandId: string): Promise<CrawlerState | null>;
  /** As crawlerLevel, for the AI Pages state (ChannelDetectorStateRepo.getAiPages). */
  aiPagesLevel(channelId: string, brandId: string): Promise<AiPagesState | null>;
  /**
   * Where the brand's messages go (as OutboxRepo.enqueue). In a batch of several brands
   * they are written with every brand's, in one statement, before it commits; should one
   * exist already (`created` would have been false), the batch writes its brands again
   * one per transaction, each message alone, so no count is off (brand-batch.ts).
   */
  outbox: MessageWriter;
  /**
   * The channels' snoozes of the batch's brands (as SnoozesRepo.active), read in the
   * batch's transaction for all its brands in one statement: the alert sink's to use.
   */
  snoozes: Pick<SnoozesRepo, 'active'>;
  /**
   * A brand of the batch's citation state (as CitationStateRepo.load), read in the batch's
   * transaction with every brand's of the batch, in one statement.
   */
  citationState(brandId: string): Promise<CitationState>;
}

/**
 * One brand's writes, run by the runner inside a transaction it shares with other brands
 * of the run (brand-batch.ts). It must only use the store (no API call, no sleep) and may
 * run more than once: a batch that fails is written again brand by brand.
 */
export type BrandWrite = (batch: BatchWrites) => Promise<EnqueueCounts>;

interface JobBase {
  name: JobName;
  /** The subscriptions this run serves; the runner groups them by brand. */
  select(ctx: JobContext, run: JobRunInfo): Promise<Subscription[]>;
  /** For `prepareBrand`: brands committed per transaction (default BRANDS_PER_COMMIT for the store's backend, brand-batch.ts). */
  brandsPerCommit?: number;
}

type BrandRun = (
  ctx: JobContext,
  brand: BrandRef,
  subs: readonly Subscription[],
  run: JobRunInfo,
) => Promise<EnqueueCounts>;

type BrandPrepare = (
  ctx: JobContext,
  brand: BrandRef,
  subs: readonly Subscription[],
  run: JobRunInfo,
) => Promise<BrandWrite>;

/**
 * A job does one brand in one of two ways:
 * - `runBrand`: its API calls (background lane), then, in one transaction of its own,
 *   detection with each channel's settings, the new state and the outbox rows;
 * - `prepareBrand`: the API calls only, returning the writes; the runner commits several
 *   brands' writes, each with its success record, in one transaction, which spares a
 *   commit (and on Postgres a round trip or two) per brand.
 */
export type JobDefinition = JobBase &
  ({ runBrand: BrandRun; prepareBrand?: never } | { prepareBrand: BrandPrepare; runBrand?: never });
