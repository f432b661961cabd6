#!/usr/bin/env node
/**
 * The CLI's entry: the package's bin, `npm start` and `npm run demo` all start here.
 * First it makes sure this Node.js can run the bot: an unsupported one gets one sentence
 * (the Node found, the lines supported, where to get one) and exit code 2, not a
 * SyntaxError from a module export an old Node lacks. So this file is parsed and run by
 * old Nodes too: it keeps to old syntax and imports only supported-node.ts, which imports
 * nothing. The CLI itself (cli/run-cli.ts) is loaded only once the version is good.
 */
import { unsupportedNodeMessage } from './supported-node.js';

const unsupported = unsupportedNodeMessage(process.versions.node);
const argv = process.argv.slice(2);
/**
 * `run-job` (but its --help) goes straight to its verb, as cli/run-cli.ts would send it: a
 * run from cron then loads the job's code alone (in the built CLI, its own bundle), not
 * the module that knows every verb first.
 */
const runJobAlone = argv[0] === 'run-job' && !argv.some((a) => a === '--help' || a === '-h');
if (unsupported !== undefined) {
  console.error(unsupported);
  process.exitCode = 2;
} else {
  import('node:module')
    .then((nodeModule) => {
      // V8's code cache on disk (in the system temp folder): later starts skip compiling
      // the dependencies again, which is most of a short `run-job`'s time. Enabled before
      // the CLI and its dependencies load. A cache that cannot be written is only slower.
      nodeModule.enableCompileCache();
      return runJobAlone
        ? import('./cli/run-job-verb.js').then((verb) => verb.runJobVerb(argv.slice(1)))
        : import('./cli/run-cli.js').then((cli) => cli.runCli(argv));
    })
    .then(
      (code) => {
        process.exitCode = code;
      },
      (err: unknown) => {
        // Last resort: a short message, never an object dump that could carry a secret.
        console.error(`visibility-bot: ${err instanceof Error ? err.message : 'unexpected failure'}`);
        process.exitCode = 1;
      },
    );
}
