/**
 * What the level jobs (crawler, AI Pages) do with one brand's answer, inside the
 * transaction the runner commits it in (brand-batch.ts): each channel's detection with its
 * own settings against its own state (channel-detector-state-repo.ts), the channel's new
 * state, and its outbox rows.
 */

import type { AlertSettings } from '../alerts/alert-settings.js';
import type { Alert, AlertNote } from '../alerts/types.js';
import type { Subscription } from '../store/subscriptions-repo.js';
import { addCounts, type EnqueueCounts, enqueueAlerts, noCounts } from '../use-cases/enqueue-alerts.js';
import type { JobContext } from './job-context.js';

interface LevelDetection<S> {
  alerts: readonly Alert[];
  notes?: readonly AlertNote[];
  next: S;
}

/** One detector, for one brand: where its per-channel state lives and how it reads the answer. */
interface ChannelLevel<S> {
  load(channelId: string): Promise<S | null>;
  /** Writes the channel's new state, or leaves it to the brand's batch (BatchWrites.saveLevel). */
  save(channelId: string, next: S): void | Promise<void>;
  detect(prev: S | null, settings: AlertSettings): LevelDetection<S>;
}

export async function applyChannelLevels<S>(
  ctx: Pick<JobContext, 'sink'>,
  subs: readonly Subscription[],
  nowMs: number,
  level: ChannelLevel<S>,
): Promise<EnqueueCounts> {
  const counts = noCounts();
  for (const sub of subs) {
    const d = level.detect(await level.load(sub.channelId), sub.settings);
    await level.save(sub.channelId, d.next);
    addCounts(counts, await enqueueAlerts(ctx.sink, sub, d.alerts, d.notes ?? [], nowMs));
  }
  return counts;
}
