/**
 * The real service on port 0 between the API simulator and the local Slack, with every
 * log line captured (after secret scrubbing, as it would reach stdout).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AppDeps, createAppDeps } from '../../src/app-deps.js';
import { type Config, loadConfig, secretsOf } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.js';
import { type RunningService, startService } from '../../src/slack/create-slack-app.js';
import { type LocalSlack, startLocalSlack } from '../../src/slack/local/index.js';

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

export async function startBackends(): Promise<{
  sim: RunningSimulator;
  slack: LocalSlack;
  dir: string;
  env: Record<string, string>;
}> {
  const sim = await startSimulator();
  const slack = await startLocalSlack();
  const dir = mkdtempSync(join(tmpdir(), 'visibility-e2e-'));
  const env = {
    VISIBILITY_API_URL: sim.url,
    VISIBILITY_API_KEY: sim.apiKey,
    SLACK_BOT_TOKEN: slack.botToken,
    SLACK_SIGNING_SECRET: slack.signingSecret,
    SLACK_API_URL: slack.url,
    PORT: '0',
    DATABASE_PATH: join(dir, 'visibility.db'),
    LOG_LEVEL: 'debug',
  };
  return { sim, slack, dir, env };
}

export function captureLogger(config: Config, lines: string[]) {
  return createLogger({
    level: 'debug',
    secrets: secretsOf(config),
    destination: { write: (line: string) => void lines.push(line) },
  });
}

export async function startHarness(extraEnv: Record<string, string> = {}): Promise<Harness> {
  const { sim, slack, dir, env: baseEnv } = await startBackends();
  const env = { ...baseEnv, ...extraEnv };
  const config = loadConfig('serve', env);
  const logLines: string[] = [];
  const deps = createAppDeps(config, { logger: captureLogger(config, logLines) });
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
