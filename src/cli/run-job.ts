/**
 * `visibility-bot run-job <citations|crawler|ai-pages|digest|weekly|housekeeping|all>`: one
 * pass now over every matching subscription (a digest whatever the hour; poll intervals are
 * not consulted), delivery of what it produced, one line per job, exit
 * (docs/runtime-contract.md). `housekeeping` (not part of `all`: it posts nothing) deletes the rows past
 * their retention now, as serve does daily, and prints what it deleted.
 * Safe while `serve` runs: the job lease keeps them off the same job, the outbox and the
 * rate budget are shared.
 *
 * Exit codes: 0 done (or skipped because another process runs the job), 1 a job failed,
 * 2 usage, 3 the API key's daily quota is spent (the jobs wait for its reset).
 */

import { type AppDepsOverrides, openAppDeps } from '../app-deps.js';
import { closestMatches } from '../closest-matches.js';
import { type Config, secretsOf } from '../config.js';
import { formatHousekeeping } from '../jobs/format-housekeeping.js';
import { formatDelivery, formatJobSummary } from '../jobs/format-job-summary.js';
import { HOUSEKEEPING_JOB, runHousekeeping } from '../jobs/housekeeping-job.js';
import { jobsDepsOf } from '../jobs/jobs-deps-of.js';
import { processOwner } from '../jobs/process-owner.js';
import { type RunJobsOptions, runJobs } from '../jobs/run-jobs.js';
import { createLogger } from '../logger.js';
import { isJobTarget, JOB_NAMES } from '../use-cases/job-names.js';
import { stdoutLines, writeStdout } from './stdout-writer.js';

const TARGETS = [...JOB_NAMES, HOUSEKEEPING_JOB, 'all'];
export const RUN_JOB_USAGE = `Usage: visibility-bot run-job <${TARGETS.join('|')}>`;

const didYouMean = (typed: string) => {
  const [nearest] = closestMatches(typed, TARGETS, { max: 1 });
  return nearest ? ` Did you mean "${nearest}"?` : '';
};

const EXIT = { ok: 0, failed: 1, usage: 2, quotaSpent: 3 } as const;

interface RunJobCommandOptions {
  out?: (line: string) => void;
  err?: (line: string) => void;
  overrides?: AppDepsOverrides;
  jobs?: Omit<RunJobsOptions, 'signal'>;
  /** Listen to SIGTERM/SIGINT (stop between brands); default true. */
  handleSignals?: boolean;
}

const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/** A line to stdout, in order with the log lines (stdout-writer.ts). */
const printLine = (line: string): void => writeStdout(`${line}\n`);

export async function runJobCommand(
  args: readonly string[],
  config: Config,
  options: RunJobCommandOptions = {},
): Promise<number> {
  const out = options.out ?? printLine;
  const err = options.err ?? ((line: string) => console.error(line));
  const [target, ...extra] = args;
  const known = (t: string) => isJobTarget(t) || t === HOUSEKEEPING_JOB;
  if (target === undefined || extra.length > 0 || !known(target)) {
    err(
      target === undefined || known(target)
        ? RUN_JOB_USAGE
        : `Unknown job "${target}".${didYouMean(target)}\n${RUN_JOB_USAGE}`,
    );
    return EXIT.usage;
  }

  // Log lines are written at once, like the summary lines (stdout-writer.ts).
  const logger =
    options.overrides?.logger ??
    createLogger({ level: config.logLevel, secrets: secretsOf(config), destination: stdoutLines });
  const deps = await openAppDeps(config, { ...options.overrides, logger });
  // The jobs get their settings, not the key and tokens: those stay with the clients in deps.
  const jobs = jobsDepsOf(deps);
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  const handleSignals = options.handleSignals !== false;
  if (handleSignals) for (const s of SIGNALS) process.once(s, onSignal);
  try {
    if (target === HOUSEKEEPING_JOB) {
      const done = await runHousekeeping(jobs, {
        owner: processOwner('run-job'),
        leaseWaitMs: options.jobs?.leaseWaitMs ?? 30_000,
        leaseTtlMs: options.jobs?.leaseTtlMs ?? 10 * 60_000,
        signal: stop.signal,
      });
      out(formatHousekeeping(done));
      return done.status === 'ok' || done.status === 'skipped' ? EXIT.ok : EXIT.failed;
    }
    if (!isJobTarget(target)) return EXIT.usage;
    const summary = await runJobs(jobs, target, {
      owner: processOwner('run-job'),
      ...options.jobs,
      signal: stop.signal,
    });
    for (const job of summary.jobs) out(formatJobSummary(job));
    if (summary.delivery) out(formatDelivery(summary.delivery));
    if (summary.quotaResetAt !== null) {
      err(
        `The API key's daily request quota is spent: jobs wait until it resets at ${new Date(summary.quotaResetAt).toISOString()}. Run the job again after that.`,
      );
      return EXIT.quotaSpent;
    }
    if (summary.jobs.some((j) => j.status === 'key_rejected')) {
      err('The Brand Visibility API rejected the API key: check VISIBILITY_API_KEY.');
      return EXIT.failed;
    }
    return summary.ok ? EXIT.ok : EXIT.failed;
  } catch (e) {
    err(`run-job ${target} failed: ${e instanceof Error ? e.message : String(e)}`);
    deps.logger.error({ err: e }, 'run-job failed');
    return EXIT.failed;
  } finally {
    if (handleSignals) for (const s of SIGNALS) process.off(s, onSignal);
    await deps.close();
    await new Promise<void>((resolve) => deps.logger.flush(() => resolve()));
  }
}
