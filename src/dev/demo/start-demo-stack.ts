/**
 * The whole demo in one process: the API simulator, the local Slack and the real service
 * (createAppDeps + startService) wired to them, with a throw-away database and logs in a
 * temporary directory (never on the console, which belongs to the demo). No scheduler
 * ticks: jobs run when the console asks (`:jobs`). The outbox relay runs as in `serve`, so
 * what the bot promises to post without a job (held alerts after `unmute`, quiet hours
 * switched off, a mute running out) is posted then, and `:jobs` delivers through it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { type AppDeps, createAppDeps } from '../../app-deps.js';
import { type Config, secretsOf } from '../../config.js';
import { createOutboxRelay, type OutboxRelay } from '../../jobs/outbox-relay.js';
import { processOwner } from '../../jobs/process-owner.js';
import { createLogger } from '../../logger.js';
import { createMetrics, type Metrics } from '../../metrics.js';
import { type RunningService, startService } from '../../slack/create-slack-app.js';
import { slackServiceDepsOf } from '../../slack/kit/slack-deps.js';
import { type LocalSlack, type LocalSlackOptions, startLocalSlack } from '../local-slack/index.js';
import { type RunningSimulator, startSimulator } from '../simulator/index.js';
import { localStackConfig } from './local-stack-config.js';

export interface DemoStack {
  sim: RunningSimulator;
  slack: LocalSlack;
  service: RunningService;
  deps: AppDeps;
  /** The outbox relay, running on its loop as serve's does; `:jobs` delivers through it. */
  relay: OutboxRelay;
  config: Config;
  /** Where the service takes Slack's requests: `<service>/slack/events`. */
  appUrl: string;
  /** The service's log file (level warn). */
  logPath: string;
  /**
   * How many commands and actions the service has finished handling. Every command and
   * action ends in exactly one metrics observation (run-command.ts, actions/index.ts), so
   * this says when a reply is complete instead of guessing from silence.
   */
  handled(): number;
  close(): Promise<void>;
}

/** The relay loop's wait, as in `serve` (scheduler.ts); a nudge ends it early. */
const RELAY_INTERVAL_MS = 5000;

/** Metrics that also count finished commands and actions. */
function countingMetrics(): { metrics: Metrics; handled: () => number } {
  const inner = createMetrics();
  let count = 0;
  const metrics: Metrics = {
    ...inner,
    observeCommand(subcommand, seconds, outcome) {
      inner.observeCommand(subcommand, seconds, outcome);
      count += 1;
    },
    observeAction(action, seconds, outcome) {
      inner.observeAction(action, seconds, outcome);
      count += 1;
    },
  };
  return { metrics, handled: () => count };
}

/** `files`: where the local Slack writes each chart the bot uploads, and who is told. */
export async function startDemoStack(
  files: Pick<LocalSlackOptions, 'filesDirectory' | 'onFile'> = {},
): Promise<DemoStack> {
  const dir = await mkdtemp(join(tmpdir(), 'visibility-demo-'));
  const closers: Array<() => Promise<void>> = [() => rm(dir, { recursive: true, force: true })];
  const closeAll = async () => {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    closers.length = 0;
  };
  try {
    const sim = await startSimulator();
    closers.push(() => sim.close());
    const slack = await startLocalSlack(files);
    closers.push(() => slack.close());
    const logPath = join(dir, 'service.log');
    const config = localStackConfig({ sim, slack, dir }, 'warn');
    const logger = createLogger({
      level: config.logLevel,
      secrets: secretsOf(config),
      // Synchronous: few lines at warn, and none is lost when the demo exits.
      destination: pino.destination({ dest: logPath, sync: true }),
    });
    const { metrics, handled } = countingMetrics();
    const deps = createAppDeps(config, { logger, metrics });
    closers.push(() => deps.close());
    const service = await startService(slackServiceDepsOf(deps), { port: 0, drainTimeoutMs: 2000 });
    closers.push(() => service.stop());
    const relay = createOutboxRelay(deps, { owner: processOwner('demo') });
    relay.start(RELAY_INTERVAL_MS);
    closers.push(() => relay.stop());
    return {
      sim,
      slack,
      service,
      deps,
      relay,
      config,
      appUrl: `${service.url}/slack/events`,
      logPath,
      handled,
      close: closeAll,
    };
  } catch (err) {
    await closeAll();
    throw err;
  }
}
