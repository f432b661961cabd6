/**
 * `serve` and `run-job` never run the same job at once (docs/runtime-contract.md): whoever holds the job's
 * lease runs it. The other waits a little (run-job: the scheduler's run usually ends soon)
 * or gives up at once (the scheduler: its next tick will do), and says so. A lease left by
 * a process of this host that is gone (killed run-job) is taken over at once.
 */
import type { Clock } from '../clock.js';
import type { JobRunsRepo } from '../store/job-runs-repo.js';
import { isDeadLocalOwner } from './process-owner.js';

interface LeaseWait {
  ttlMs: number;
  /** How long to wait for a busy lease; 0 = try once. */
  waitMs: number;
  pollMs?: number;
  clock: Clock;
  signal?: AbortSignal | undefined;
}

type LeaseResult = { ok: true } | { ok: false; holder: string | null };

export async function acquireJobLease(
  jobRuns: JobRunsRepo,
  job: string,
  owner: string,
  o: LeaseWait,
): Promise<LeaseResult> {
  const deadline = o.clock.now() + o.waitMs;
  for (;;) {
    if (await jobRuns.acquireLease(job, owner, o.ttlMs)) return { ok: true };
    const holder = (await jobRuns.getLease(job))?.owner ?? null;
    if (holder !== null && isDeadLocalOwner(holder)) {
      await jobRuns.releaseLease(job, holder);
      continue;
    }
    const left = deadline - o.clock.now();
    if (left <= 0 || o.signal?.aborted) return { ok: false, holder };
    await o.clock.sleep(Math.min(o.pollMs ?? 250, left), o.signal).catch(() => {});
  }
}
