/**
 * The shape of the four jobs. The runner (run-job-once.ts) does everything they share: the
 * lease, the run record, one brand at a time with the API called once per brand, error
 * handling and health; a job only says which subscriptions it serves and what one brand's
 * run does.
 */

import type { EnqueueCounts } from '../alerting/enqueue-alerts.js';
import type { JobName } from '../alerting/job-names.js';
import type { BrandRef } from '../alerts/types.js';
import type { Subscription } from '../store/subscriptions-repo.js';
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

export interface JobDefinition {
  name: JobName;
  /** The subscriptions this run serves; the runner groups them by brand. */
  select(ctx: JobContext, run: JobRunInfo): Promise<Subscription[]>;
  /**
   * One brand: its API calls (background lane), then, in one transaction, detection with
   * each channel's settings, the new state and the outbox rows.
   */
  runBrand(
    ctx: JobContext,
    brand: BrandRef,
    subs: readonly Subscription[],
    run: JobRunInfo,
  ): Promise<EnqueueCounts>;
}
