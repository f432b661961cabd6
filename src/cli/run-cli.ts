/**
 * The CLI behind the entry (main.ts loads it once the Node version is known to be good):
 * serve | run-job | check | simulator | demo | migrate-store (docs/runtime-contract.md).
 * Configuration problems exit 2 with one readable message; secrets are never printed.
 * Verbs are loaded on demand, so `--help` and a mistyped verb load neither the
 * configuration nor any verb.
 */

import { closestMatches } from '../closest-matches.js';
import type { Verb } from '../config.js';
import { JOB_NAMES } from '../use-cases/job-names.js';
import { exitCodeForStartFailure } from './cli-failure.js';

/** Every verb and option the README's "Commands" shows (a test holds the two together). */
export const USAGE = `Usage: visibility-bot <command> [options]

Commands:
  serve                 run the Slack app (HTTP or Socket Mode) and the scheduler
  run-job <${[...JOB_NAMES, 'housekeeping', 'all'].join('|')}>
                        run one job now over every subscription, deliver, exit;
                        housekeeping deletes what is past its retention now
  check                 check what is configured: the database, the API key and the Slack
                        token, each on its own line, and say what is not configured yet
  simulator [--port N] [--brands N]
                        run the Brand Visibility API simulator alone (default port 4010);
                        --brands N serves N brands (default 5)
  demo [--tour | --script FILE]
                        zero-config demo: simulator + local Slack + the bot + a console;
                        --tour runs a scripted tour, --script FILE your own lines
  demo --services-only [--port N] [--slack-port N] [--app-url URL]
                        the simulator (default port 4010) and the local Slack (4011) alone,
                        for running serve against them; typed lines go to --app-url
  migrate-store [--replace]
                        copy the SQLite database (DATABASE_PATH) into Postgres (DATABASE_URL)
  help                  this text (also --help, or --help after a command)

Configuration is read from environment variables; see README.md, "Configuration".`;

const HELP_FLAGS = ['--help', '-h'];

/** Verbs that print their own, more detailed, usage for --help. */
const OWN_HELP: readonly string[] = ['simulator', 'demo'];

async function dispatch(
  verb: Verb,
  args: readonly string[],
  loadConfig: typeof import('../config.js').loadConfig,
): Promise<number> {
  switch (verb) {
    case 'simulator': {
      const { runSimulatorCommand } = await import('./simulator.js');
      return runSimulatorCommand(args);
    }
    case 'demo': {
      const { runDemo } = await import('./demo.js');
      return runDemo(args);
    }
    // Configuration is validated before anything heavy is loaded.
    case 'serve': {
      const config = loadConfig('serve');
      const { runServe } = await import('./serve.js');
      return runServe(config);
    }
    case 'check': {
      const config = loadConfig('check');
      const { runCheck } = await import('./check.js');
      return runCheck(config);
    }
    case 'run-job':
      return runJobVerbOf(args);
    case 'migrate-store': {
      const config = loadConfig('migrate-store');
      const { runMigrateStore } = await import('./migrate-store.js');
      return runMigrateStore(args, config);
    }
  }
}

/**
 * `run-job`, loaded on demand. The built CLI (scripts/build-dist.mjs) takes this import
 * from a bundle of its own, dist/run-job/run-job-verb.js.
 */
async function runJobVerbOf(args: readonly string[]): Promise<number> {
  const { runJobVerb } = await import('./run-job-verb.js');
  return runJobVerb(args);
}

/** "Unknown command" with the nearest verb when one is close, then the usage. */
function unknownVerb(verb: string, verbs: readonly string[]): string {
  const [nearest] = closestMatches(verb, verbs, { max: 1 });
  return `Unknown command "${verb}".${nearest ? ` Did you mean "${nearest}"?` : ''}\n\n${USAGE}`;
}

/** serve and check take no arguments: a stray one is more likely a typo than a wish to ignore it. */
function strayArguments(verb: string, args: readonly string[]): string | undefined {
  if ((verb === 'serve' || verb === 'check') && args.length > 0)
    return `${verb} takes no arguments (got "${args.join(' ')}").\n\n${USAGE}`;
  return undefined;
}

export async function runCli(argv: readonly string[]): Promise<number> {
  const [verb, ...args] = argv;
  if (verb === undefined || verb === 'help' || HELP_FLAGS.includes(verb)) {
    console.log(USAGE);
    return verb === undefined ? 2 : 0;
  }
  // run-job loads its own configuration (run-job-verb.ts): the jobs' bundle, nothing shared.
  if (verb === 'run-job' && !args.some((a) => HELP_FLAGS.includes(a))) return runJobVerbOf(args);
  const { ConfigError, loadConfig, verbs } = await import('../config.js');
  if (!(verbs as readonly string[]).includes(verb)) {
    console.error(unknownVerb(verb, verbs));
    return 2;
  }
  if (!OWN_HELP.includes(verb) && args.some((a) => HELP_FLAGS.includes(a))) {
    console.log(USAGE);
    return 0;
  }
  const stray = strayArguments(verb, args);
  if (stray) {
    console.error(stray);
    return 2;
  }
  try {
    return await dispatch(verb as Verb, args, loadConfig);
  } catch (err) {
    return exitCodeForStartFailure(err, ConfigError);
  }
}
