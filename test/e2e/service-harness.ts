/**
 * The real service on port 0 between the API simulator and the local Slack, with every
 * log line captured (after secret scrubbing, as it would reach stdout).
 */

import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type AppDeps, type AppDepsOverrides, createAppDeps } from '../../src/app-deps.js';
import { type Config, loadConfig, secretsOf } from '../../src/config.js';
import { localStackEnv } from '../../src/dev/demo/local-stack-config.js';
import { type LocalSlack, type LocalSlackOptions, startLocalSlack } from '../../src/dev/local-slack/index.js';
import {
  type RunningSimulator,
  type SimulatorOptions,
  startSimulator,
} from '../../src/dev/simulator/index.js';
import { createLogger } from '../../src/logger.js';
import { type RunningService, startService } from '../../src/slack/create-slack-app.js';
import { spawnCollecting } from '../helpers/spawn-collecting.js';

export interface Harness {
  sim: RunningSimulator;
  slack: LocalSlack;
  config: Config;
  deps: AppDeps;
  service: RunningService;
  appUrl: string;
  logLines: string[];
  env: Record<string, string>;
  close(): Promise<void>;
}

export interface Backends {
  sim: RunningSimulator;
  slack: LocalSlack;
  /** Temporary; holds the database. */
  dir: string;
  /** What `serve` reads to use them (HTTP mode, port 0, LOG_LEVEL debug). */
  env: Record<string, string>;
}

export async function startBackends(
  simulator: SimulatorOptions = {},
  slackOptions: LocalSlackOptions = {},
): Promise<Backends> {
  const sim = await startSimulator(simulator);
  const slack = await startLocalSlack(slackOptions);
  const dir = mkdtempSync(join(tmpdir(), 'visibility-e2e-'));
  return { sim, slack, dir, env: localStackEnv({ sim, slack, dir }, 'debug') };
}

export interface SpawnedServe {
  child: ChildProcess;
  /** Its base URL, once it printed that it listens. */
  url: string;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** Its exit code, when it exits. */
  exited: Promise<number | null>;
}

/** `serve` as its own process (`tsx src/main.ts serve`) against the backends. */
export async function spawnServe(
  backends: Backends,
  nodeArgs: readonly string[] = [],
): Promise<SpawnedServe> {
  const { child, output, exited } = spawnCollecting(
    process.execPath,
    ['--import', 'tsx', ...nodeArgs, 'src/main.ts', 'serve'],
    { cwd: process.cwd(), env: { ...process.env, ...backends.env, LOG_LEVEL: 'info' } },
  );
  const url = await backends.slack.waitFor(
    () => /listening on (http:\/\/[\d.:]+)/.exec(output())?.[1],
    15_000,
  );
  return { child, url, output, exited };
}

/**
 * Backends for every test of a file: started before all, closed after all, and the
 * simulator and Slack reset before each test. The object is filled in by beforeAll.
 */
export function useBackends(): Backends {
  const backends = {} as Backends;
  beforeAll(async () => {
    Object.assign(backends, await startBackends());
  });
  afterAll(async () => {
    await backends.slack?.close();
    await backends.sim?.close();
    if (backends.dir) rmSync(backends.dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    backends.slack.reset();
    backends.sim.control.reset();
  });
  return backends;
}

export function captureLogger(config: Config, lines: string[]) {
  return createLogger({
    level: 'debug',
    secrets: secretsOf(config),
    destination: { write: (line: string) => void lines.push(line) },
  });
}

export interface HarnessOptions {
  /** Variables laid over the backends' environment. */
  env?: Record<string, string>;
  simulator?: SimulatorOptions;
  /** Local Slack options, e.g. a signing clock that follows a shifted app clock. */
  slack?: LocalSlackOptions;
  /** createAppDeps overrides besides the captured logger, e.g. a shifted clock. */
  deps?: Omit<AppDepsOverrides, 'logger'>;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const { sim, slack, dir, env: baseEnv } = await startBackends(options.simulator, options.slack);
  const env = { ...baseEnv, ...options.env };
  const config = loadConfig('serve', env);
  const logLines: string[] = [];
  const deps = createAppDeps(config, { ...options.deps, logger: captureLogger(config, logLines) });
  const service = await startService(deps, { port: 0, drainTimeoutMs: 5000 });
  return {
    sim,
    slack,
    config,
    deps,
    service,
    appUrl: `${service.url}/slack/events`,
    logLines,
    env,
    async close() {
      await service.stop();
      await deps.close();
      await slack.close();
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
