/**
 * A pass of every job with nothing subscribed, the commonest `run-job all` from cron, on
 * every backend: each job still takes and gives back its lease and records a finished,
 * successful run with nothing counted; nothing is asked of the API or Slack, and nothing
 * is delivered. (The pass skips what it has no use for then: a brand batch, a relay.)
 */
import type { WebClient } from '@slack/web-api';
import { expect, it } from 'vitest';
import { emptyDelivery } from '../../src/jobs/deliver-outbox.js';
import { runJobs } from '../../src/jobs/run-jobs.js';
import { JOB_NAMES } from '../../src/use-cases/job-names.js';
import { manualClock } from '../helpers/manual-clock.js';
import { describeBackends } from '../store/contract/store-backends.js';
import { captureLogger, fakeApi, type LogLine } from './job-fixture.js';

const NOW = Date.UTC(2026, 10, 28, 9, 0);
const RETENTION = { messagesDays: 90, pollDataDays: 90, jobRunsDays: 90, auditDays: 365 };

/** A Slack client that fails the test if the pass touches it at all. */
const untouchable = new Proxy(
  {},
  {
    get(_target, prop) {
      throw new Error(`Slack client used (${String(prop)})`);
    },
  },
) as WebClient;

describeBackends('a pass of every job with nothing subscribed', (b) => {
  it('records an ok run per job with nothing counted, leaves no lease, and calls neither the API nor Slack', async () => {
    const clock = manualClock(NOW);
    const lines: LogLine[] = [];
    const fake = fakeApi();
    const store = b().store({ clock });
    const deps = {
      api: fake.api,
      store,
      clock,
      config: { defaultTimezone: 'UTC', opsChannel: 'COPS', retention: RETENTION },
      logger: captureLogger(lines),
      web: untouchable,
    };

    const summary = await runJobs(deps, 'all', { owner: 'me', leaseWaitMs: 0, deliverWaitMs: 0 });

    expect(summary.ok).toBe(true);
    expect(summary.jobs.map((j) => [j.job, j.status, j.brands, j.messages])).toEqual(
      JOB_NAMES.map((job) => [job, 'ok', 0, 0]),
    );
    expect(summary.delivery).toEqual(emptyDelivery());
    const runs = await store.jobRuns.recent(10);
    expect(runs.map((r) => r.job).sort()).toEqual([...JOB_NAMES].sort());
    for (const r of runs) {
      expect(r).toMatchObject({ owner: 'me', ok: true, error: null, startedAtMs: NOW, finishedAtMs: NOW });
      expect(r.counts).toEqual({ brands: 0, succeeded: 0, failed: 0, alerts: 0, messages: 0 });
    }
    for (const job of JOB_NAMES) expect(await store.jobRuns.getLease(job)).toBeNull();
    expect(fake.calls).toEqual([]);
    expect(await store.outbox().counts()).toMatchObject({ pending: 0, held: 0, sending: 0 });
    expect(lines.filter((l) => l.msg.endsWith(' job ok')).map((l) => l['job'])).toEqual(
      expect.arrayContaining([...JOB_NAMES]),
    );
  });
});
