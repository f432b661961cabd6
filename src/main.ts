#!/usr/bin/env node
/**
 * CLI entry: serve | run-job | check | simulator | demo | migrate-store (DESIGN.md "Runtime contract").
 * Configuration problems exit 2 with one readable message; secrets are never printed.
 */
import { enableCompileCache } from 'node:module';
import type { Verb } from './config.js';

// V8's code cache on disk (in the system temp folder): later starts skip compiling the
// dependencies again, which is most of a short `run-job`'s time. Enabled before anything
// else loads, hence no static imports of our modules here. A cache that cannot be written
// is only slower, never an error.
enableCompileCache?.();

const USAGE = `Usage: visibility-bot <command>

Commands:
  serve                 run the Slack app (HTTP or Socket Mode) and the scheduler
  run-job <job|all>     run one job now (citations, crawler, ai-pages, digest, all), deliver, exit
  check                 validate the configuration, call the API and Slack auth.test
  simulator [--port N]  run the Brand Visibility API simulator alone (default port 4010)
  demo [--tour | --script FILE]
                        zero-config demo: simulator + local Slack + the bot + a console
  migrate-store [--replace]
                        copy the SQLite database (DATABASE_PATH) into Postgres (DATABASE_URL)

Configuration is read from environment variables; see README.md.`;

async function dispatch(
  verb: Verb,
  args: readonly string[],
  loadConfig: typeof import('./config.js').loadConfig,
): Promise<number> {
  switch (verb) {
    case 'simulator': {
      const { runSimulatorCommand } = await import('./cli/simulator.js');
      return runSimulatorCommand(args);
    }
    case 'demo': {
      const { runDemo } = await import('./cli/demo.js');
      return runDemo(args);
    }
    // Configuration is validated before anything heavy is loaded.
    case 'serve': {
      const config = loadConfig('serve');
      const { runServe } = await import('./cli/serve.js');
      return runServe(config);
    }
    case 'check': {
      const config = loadConfig('check');
      const { runCheck } = await import('./cli/check.js');
      return runCheck(config);
    }
    case 'run-job': {
      const config = loadConfig('run-job');
      const { runJobCommand } = await import('./cli/run-job.js');
      return runJobCommand(args, config);
    }
    case 'migrate-store': {
      const config = loadConfig('migrate-store');
      const { runMigrateStore } = await import('./cli/migrate-store.js');
      return runMigrateStore(args, config);
    }
  }
}

export async function main(argv: readonly string[]): Promise<number> {
  const [verb, ...args] = argv;
  if (verb === undefined || verb === 'help' || verb === '--help' || verb === '-h') {
    console.log(USAGE);
    return verb === undefined ? 2 : 0;
  }
  const { ConfigError, loadConfig, verbs } = await import('./config.js');
  if (!(verbs as readonly string[]).includes(verb)) {
    console.error(`Unknown command "${verb}".\n\n${USAGE}`);
    return 2;
  }
  try {
    return await dispatch(verb as Verb, args, loadConfig);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`${err.message}\n\nSee README.md, "Configuration", for every variable.`);
      return 2;
    }
    // Postgres could not be reached or used (DATABASE_URL): one readable sentence that
    // names host, port and database, never the password.
    const code = (err as { code?: unknown } | undefined)?.code;
    if (typeof code === 'string' && code.startsWith('pg_')) {
      console.error((err as Error).message);
      return 1;
    }
    throw err;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    // Last resort: a short message, never an object dump that could carry a secret.
    console.error(`visibility-bot: ${err instanceof Error ? err.message : 'unexpected failure'}`);
    process.exitCode = 1;
  },
);
