/**
 * The configuration of the real service wired to a local API simulator and the local Slack
 * (HTTP mode, port 0, the database in a throw-away directory): what the demo, the
 * end-to-end tests and the benchmarks run. Built as `serve` would read it from the
 * environment, so the tests can lay their own variables over it and hand the same
 * environment to a child process.
 */
import { join } from 'node:path';
import { type Config, type LogLevel, loadConfig } from '../../config.js';
import type { LocalSlack } from '../local-slack/index.js';
import type { RunningSimulator } from '../simulator/index.js';

interface LocalStack {
  sim: Pick<RunningSimulator, 'url' | 'apiKey'>;
  slack: Pick<LocalSlack, 'botToken' | 'signingSecret' | 'url'>;
  /** The directory the database (`visibility.db`) goes in. */
  dir: string;
}

/** The environment `serve` reads for `stack`; `extra` is laid over it. */
export function localStackEnv(
  stack: LocalStack,
  logLevel: LogLevel,
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  return {
    VISIBILITY_API_URL: stack.sim.url,
    VISIBILITY_API_KEY: stack.sim.apiKey,
    SLACK_BOT_TOKEN: stack.slack.botToken,
    SLACK_SIGNING_SECRET: stack.slack.signingSecret,
    SLACK_API_URL: stack.slack.url,
    PORT: '0',
    DATABASE_PATH: join(stack.dir, 'visibility.db'),
    LOG_LEVEL: logLevel,
    ...extra,
  };
}

/** The Config `serve` loads from localStackEnv(stack, logLevel, extra). */
export function localStackConfig(
  stack: LocalStack,
  logLevel: LogLevel,
  extra: Readonly<Record<string, string>> = {},
): Config {
  return loadConfig('serve', localStackEnv(stack, logLevel, extra));
}
