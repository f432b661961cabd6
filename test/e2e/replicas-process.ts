/**
 * One replica as its own process: `serve` or `run-job <job>` exactly as src/main.ts runs
 * them (runServe / runJobCommand over the environment's config), with one difference: the
 * limiter's "minute" is `windowMs` long, so the plan's windows pass in seconds and a test
 * can check several of them. The simulator is given the same compressed window.
 *
 *   node --import tsx test/e2e/replicas-process.ts serve <windowMs>
 *   node --import tsx test/e2e/replicas-process.ts run-job <windowMs> <job>
 */
import { runJobCommand } from '../../src/cli/run-job.js';
import { runServe } from '../../src/cli/serve.js';
import { loadConfig } from '../../src/config.js';

const [verb, windowArg, ...rest] = process.argv.slice(2);
const windowMs = Number(windowArg);
if ((verb !== 'serve' && verb !== 'run-job') || !Number.isInteger(windowMs) || windowMs <= 0) {
  console.error('usage: replicas-process.ts <serve|run-job> <windowMs> [job]');
  process.exit(2);
}
const overrides = { limiter: { windowMs } };
process.exitCode =
  verb === 'serve'
    ? await runServe(loadConfig('serve'), { overrides })
    : await runJobCommand(rest, loadConfig('run-job'), { overrides });
