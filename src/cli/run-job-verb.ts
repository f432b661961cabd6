/**
 * `run-job` from the command line: its configuration, then the job (run-job.ts), with the
 * same messages and exit codes for a configuration or database problem as every verb
 * (cli-failure.ts). The entry (main.ts) sends `run-job` here before it loads anything else,
 * as run-cli.ts does when it is called itself.
 *
 * `npm run build` bundles this module on its own (scripts/build-dist.mjs, dist/run-job/):
 * a short `run-job` from cron then reads one file instead of the two dozen chunks the
 * other verbs share, and only the parts of zod it uses.
 */

import { ConfigError, loadConfig } from '../config.js';
import { exitCodeForStartFailure } from './cli-failure.js';
import { runJobCommand } from './run-job.js';

export async function runJobVerb(args: readonly string[]): Promise<number> {
  try {
    return await runJobCommand(args, loadConfig('run-job'));
  } catch (err) {
    return exitCodeForStartFailure(err, ConfigError);
  }
}
