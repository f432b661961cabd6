import { describe, expect, it } from 'vitest';
import { RUN_JOB_USAGE, runJobCommand } from '../../src/cli/run-job.js';
import type { Config } from '../../src/config.js';
import { formatJobSummary } from '../../src/jobs/format-job-summary.js';
import type { JobSummary } from '../../src/jobs/run-job-once.js';

describe('run-job arguments', () => {
  // A bad job name is refused before anything is opened, so no config is needed.
  const config = {} as Config;
  const run = async (args: string[]) => {
    const err: string[] = [];
    const code = await runJobCommand(args, config, {
      err: (l) => err.push(l),
      out: () => {},
      handleSignals: false,
    });
    return { code, err: err.join('\n') };
  };

  it('exits 2 with the usage for a missing, unknown or extra job', async () => {
    expect(await run([])).toEqual({ code: 2, err: RUN_JOB_USAGE });
    expect(await run(['citation'])).toEqual({
      code: 2,
      err: `Unknown job "citation". Did you mean "citations"?\n${RUN_JOB_USAGE}`,
    });
    expect(await run(['weeks'])).toEqual({
      code: 2,
      err: `Unknown job "weeks". Did you mean "weekly"?\n${RUN_JOB_USAGE}`,
    });
    expect((await run(['digest', 'now'])).code).toBe(2);
    expect(RUN_JOB_USAGE).toBe(
      'Usage: visibility-bot run-job <citations|crawler|ai-pages|digest|weekly|housekeeping|all>',
    );
  });
});

describe('job summary lines', () => {
  const base: JobSummary = {
    job: 'citations',
    status: 'ok',
    brands: 3,
    succeeded: 3,
    failed: 0,
    alerts: 4,
    notes: 0,
    messages: 2,
    held: 1,
    durationMs: 1234,
    detail: null,
    quotaResetAt: null,
  };
  it('says what a run did, or why it did not', () => {
    expect(formatJobSummary(base)).toBe('citations: 3 brands, 4 alerts in 2 messages (1 held) (1.2 s)');
    expect(formatJobSummary({ ...base, job: 'digest', messages: 1 })).toBe(
      'digest: 3 brands, 1 digest (1.2 s)',
    );
    expect(formatJobSummary({ ...base, job: 'weekly', messages: 2 })).toBe(
      'weekly: 3 brands, 2 weekly summaries (1.2 s)',
    );
    expect(
      formatJobSummary({ ...base, status: 'skipped', detail: 'another process is running it (serve:h:1)' }),
    ).toBe('citations: skipped: another process is running it (serve:h:1)');
    expect(
      formatJobSummary({
        ...base,
        status: 'quota_spent',
        succeeded: 1,
        detail: "the API key's daily quota is spent",
      }),
    ).toBe("citations: stopped after 1 of 3 brands: the API key's daily quota is spent");
    const stopped =
      'the database could not be used, so the run stopped (serve runs it again once the database answers)';
    expect(formatJobSummary({ ...base, status: 'database_unavailable', succeeded: 1, detail: stopped })).toBe(
      `citations: stopped after 1 of 3 brands: ${stopped}`,
    );
    expect(formatJobSummary({ ...base, status: 'database_unavailable', brands: 0, detail: stopped })).toBe(
      `citations: ${stopped}`,
    );
    expect(formatJobSummary({ ...base, status: 'failed', succeeded: 0, failed: 3, detail: 'B: boom' })).toBe(
      'citations: FAILED 3 brands, 4 alerts in 2 messages (1 held), 3 failed (last: B: boom) (1.2 s)',
    );
  });
});
