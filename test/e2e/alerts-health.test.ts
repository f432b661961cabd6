/**
 * The bot's own trouble end to end (docs/alert-semantics.md: key rejected, daily quota spent): each
 * reaches SLACK_OPS_CHANNEL once when it starts and once when it clears, whatever number
 * of runs see it; `run-job` exits 3 on a spent quota; the scheduler waits for the reset
 * instead of failing every tick; and commands explain both.
 */

import { beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/api/hash-api-key.js';
import { createScheduler } from '../../src/jobs/scheduler.js';
import { JOB_NAMES } from '../../src/use-cases/job-names.js';
import { nextUtcMidnight, utcDay } from '../../src/utc-days.js';
import { sqliteDbOf } from '../store/temp-db.js';
import { messageText, useAlertsHarness } from './alerts-harness.js';

const OPS = 'COPSROOM';
const h = useAlertsHarness({ env: { SLACK_OPS_CHANNEL: OPS } });

beforeAll(async () => {
  h.channel(OPS, 'bot-ops');
  h.channel('CHEALTH');
  await h.command('subscribe "Acme Analytics" alerts', 'CHEALTH');
});

const opsTexts = () => h.posts(OPS).map(messageText);

describe('a rejected API key', () => {
  it('is reported to the ops channel once, explained to commands, and cleared once', async () => {
    h.sim.control.injectFault({
      kind: 'status',
      status: 401,
      count: 100,
      body: { detail: 'Invalid API key' },
    });
    const first = await h.runJobs('citations');
    expect(first.jobs[0]).toMatchObject({ status: 'key_rejected' });
    const callsBefore = h.sim.requests.length;
    const again = await h.runJobs('all');
    // The polls run side by side only once a call went through: one refusal, not three.
    expect(h.sim.requests.length - callsBefore).toBe(1);
    // Every job of `all` (the three polls, the digest, the weekly summary) stops the same way.
    expect(again.jobs.map((j) => j.status)).toEqual(JOB_NAMES.map(() => 'key_rejected'));
    // The first job stopped at its first refusal and the others were not even started.
    expect(again.jobs.slice(1).every((j) => j.detail?.startsWith('not started'))).toBe(true);
    expect(opsTexts()).toHaveLength(1);
    expect(opsTexts()[0]).toContain('rejected the API key');

    h.deps.brandCache.invalidate();
    const brands = await h.command('brands', 'CHEALTH');
    expect(brands.text).toContain('API key was rejected');
    const status = await h.command('status', 'CHEALTH');
    expect(JSON.stringify(status.blocks)).toContain('rejected the API key');

    h.sim.control.clearFaults();
    await h.runJobs('citations');
    await h.runJobs('citations');
    expect(opsTexts()).toHaveLength(2);
    expect(opsTexts()[1]).toContain('Cleared');
    expect(h.posts('CHEALTH')).toEqual([]);
  });
});

describe('a spent daily quota', () => {
  const spend = (count: number) =>
    sqliteDbOf(h.deps.store)
      .prepare(
        `INSERT INTO rate_daily_usage (key_hash, day, count) VALUES (?, ?, ?)
         ON CONFLICT (key_hash, day) DO UPDATE SET count = excluded.count`,
      )
      .run(hashApiKey(h.sim.apiKey), utcDay(Date.now()), count);

  it('stops run-job with exit 3, waits in the scheduler, reaches ops once, and commands say when it resets', async () => {
    spend(10_000);
    const before = h.sim.requests.length;
    const r1 = await h.runJobProcess('citations');
    expect(r1.code).toBe(3);
    expect(r1.stderr).toContain("The API key's daily request quota is spent");
    expect(r1.stderr).toContain(new Date(nextUtcMidnight(Date.now())).toISOString());
    const r2 = await h.runJobProcess('all');
    expect(r2.code).toBe(3);
    expect(h.sim.requests.length).toBe(before);
    const quotaReports = () =>
      opsTexts().filter((t) => t.includes('daily request quota is spent') && !t.includes('Cleared'));
    expect(quotaReports()).toHaveLength(1);

    const scheduler = createScheduler(h.deps, { relay: { paceMs: 20 } });
    sqliteDbOf(h.deps.store).prepare("DELETE FROM job_runs WHERE job = 'citations'").run();
    await scheduler.pollTick();
    expect((await scheduler.snapshot()).quotaWaitUntilMs).toBe(nextUtcMidnight(Date.now()));
    const runs = () =>
      (sqliteDbOf(h.deps.store).prepare('SELECT COUNT(*) AS n FROM job_runs').get() as { n: number }).n;
    const runsAfterFirst = runs();
    await scheduler.pollTick();
    await scheduler.digestTick();
    expect(runs()).toBe(runsAfterFirst);
    await scheduler.stop();

    h.deps.brandCache.invalidate();
    const brands = await h.command('brands', 'CHEALTH');
    expect(brands.text).toContain("The API key's daily request quota is spent. It resets <!date^");

    spend(0);
    const r3 = await h.runJobProcess('citations');
    expect(r3.code).toBe(0);
    expect(opsTexts().filter((t) => t.includes('Cleared') && t.includes('quota'))).toHaveLength(1);
    expect(quotaReports()).toHaveLength(1);
  });
});
