/**
 * The alerting end to end: the API simulator and the local Slack over real HTTP, the real
 * service (slash commands) on port 0, and the jobs run in process (`runJobs`) or as the
 * real `run-job` process. Two clocks that run at real speed but can be moved forward:
 * the simulator's (its daily snapshots are stamped with its "today", so each new snapshot
 * is a new day, as in the real service) and the bot's (quiet hours and mutes end when the
 * test says so).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { type Clock, systemClock } from '../../src/clock.js';
import type { StoredMessage } from '../../src/dev/local-slack/index.js';
import { type RunningSimulator, SEED_BRANDS, type SimulatorOptions } from '../../src/dev/simulator/index.js';
import { type RunJobsOptions, type RunJobsSummary, runJobs } from '../../src/jobs/run-jobs.js';
import { CHANNEL_NOTE_EVENT } from '../../src/slack/features/subscriptions/post-channel-note.js';
import type { JobTarget } from '../../src/use-cases/job-names.js';
import { type Harness, startHarness } from './service-harness.js';

export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;
export const ROOT = join(import.meta.dirname, '..', '..');

export interface ShiftedClock extends Clock {
  advance(ms: number): void;
  /**
   * Stops the clock where it is until resume(); advance() still moves it. For a check at an
   * exact instant (a row due at T is not sent at T - 1): running on, the clock would pass T
   * whenever the machine is slow between the advance and the check.
   */
  freeze(): void;
  /** Runs on at real speed from where the frozen clock stands. */
  resume(): void;
}

/** Real time plus an offset the test moves forward; sleeps are real. */
export function shiftedClock(): ShiftedClock {
  let offset = 0;
  let frozenAt: number | null = null;
  const now = () => frozenAt ?? Date.now() + offset;
  return {
    now,
    sleep: systemClock.sleep,
    advance: (ms) => {
      if (frozenAt === null) offset += ms;
      else frozenAt += ms;
    },
    freeze: () => {
      frozenAt = now();
    },
    resume: () => {
      if (frozenAt === null) return;
      offset = frozenAt - Date.now();
      frozenAt = null;
    },
  };
}

export interface ReplyBody {
  text: string;
  blocks: Array<Record<string, unknown>>;
}

export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** startHarness (service-harness.ts) on the two clocks, with what the alerting tests do. */
export interface AlertsHarness extends Harness {
  simClock: ShiftedClock;
  botClock: ShiftedClock;
  /** `/visibility <text>` in `channelId`; resolves with the first reply (Slack must have accepted it). */
  command(text: string, channelId?: string, userId?: string): Promise<ReplyBody>;
  /** Adds a channel the bot is a member of. */
  channel(id: string, name?: string): string;
  /** runJobs in this process, with fast delivery knobs. */
  runJobs(job: JobTarget, options?: RunJobsOptions): Promise<RunJobsSummary>;
  /** The real `run-job` process, spawned. */
  spawnRunJob(job: string, extraEnv?: Record<string, string>): ChildProcess;
  runJobProcess(job: string, extraEnv?: Record<string, string>): Promise<ProcessResult>;
  /**
   * What the bot posted with chat.postMessage in `channel`: alerts and digests (responses to
   * commands and the channel notes saying who changed a subscription excluded).
   */
  posts(channel: string): StoredMessage[];
  /** The channel notes in `channel` ("<@U…> muted alerts…"), oldest first. */
  notes(channel: string): StoredMessage[];
  /** The simulator's next daily snapshot, on the next day. */
  advanceSnapshot(changes: Parameters<RunningSimulator['control']['advanceSnapshot']>[0]): void;
}

export interface AlertsHarnessOptions {
  env?: Record<string, string>;
  simulator?: Omit<SimulatorOptions, 'clock'>;
}

export async function startAlertsHarness(options: AlertsHarnessOptions = {}): Promise<AlertsHarness> {
  const simClock = shiftedClock();
  const botClock = shiftedClock();
  const base = await startHarness({
    env: options.env,
    simulator: { ...options.simulator, clock: simClock },
    deps: { clock: botClock },
    // Slack signs with the time the bot sees: the bot refuses requests 5 minutes off its clock.
    slack: { signingClock: botClock },
  });
  const { sim, slack, deps, env, appUrl } = base;
  const children = new Set<ChildProcess>();

  const spawnRunJob = (job: string, extraEnv: Record<string, string> = {}) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'run-job', job], {
      cwd: ROOT,
      env: {
        PATH: process.env['PATH'] ?? '',
        VISIBILITY_API_URL: env['VISIBILITY_API_URL']!,
        VISIBILITY_API_KEY: env['VISIBILITY_API_KEY']!,
        SLACK_BOT_TOKEN: env['SLACK_BOT_TOKEN']!,
        SLACK_API_URL: env['SLACK_API_URL']!,
        DATABASE_PATH: env['DATABASE_PATH']!,
        LOG_LEVEL: 'warn',
        ...(env['SLACK_OPS_CHANNEL'] ? { SLACK_OPS_CHANNEL: env['SLACK_OPS_CHANNEL'] } : {}),
        ...(env['VISIBILITY_API_PLAN'] ? { VISIBILITY_API_PLAN: env['VISIBILITY_API_PLAN'] } : {}),
        ...extraEnv,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    child.on('exit', () => children.delete(child));
    return child;
  };

  return {
    ...base,
    simClock,
    botClock,
    async command(text, channelId, userId) {
      const res = await slack.slashCommand(appUrl, {
        text,
        ...(channelId ? { channelId } : {}),
        ...(userId ? { userId } : {}),
      });
      expect(res.status).toBe(200);
      const post = await slack.waitFor(() => slack.responsesFor(res.responseUrlId)[0], 8000);
      expect(post.error, JSON.stringify(post.errors)).toBeUndefined();
      return post.body as ReplyBody;
    },
    channel(id, name = id.toLowerCase()) {
      slack.addChannel({ id, name, isMember: true });
      return id;
    },
    runJobs: (job, o = {}) => runJobs(deps, job, { relay: { paceMs: 20 }, deliverWaitMs: 10_000, ...o }),
    spawnRunJob,
    runJobProcess(job, extraEnv) {
      const child = spawnRunJob(job, extraEnv);
      let stdout = '';
      let stderr = '';
      child.stdout!.on('data', (d) => {
        stdout += String(d);
      });
      child.stderr!.on('data', (d) => {
        stderr += String(d);
      });
      return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
    },
    posts: (channel) =>
      slack.messages(channel).filter((m) => m.via === 'chat.postMessage' && !isChannelNote(m)),
    notes: (channel) => slack.messages(channel).filter(isChannelNote),
    advanceSnapshot(changes) {
      simClock.advance(DAY_MS);
      sim.control.advanceSnapshot(changes);
    },
    async close() {
      for (const c of children) c.kill('SIGKILL');
      await base.close();
    },
  };
}

/**
 * The harness for every test of a file: started before all, closed after all. The object
 * is filled in by beforeAll; a file's own beforeAll registered after this one sees it.
 */
export function useAlertsHarness(options: AlertsHarnessOptions = {}): AlertsHarness {
  const h = {} as AlertsHarness;
  beforeAll(async () => {
    Object.assign(h, await startAlertsHarness(options));
  });
  afterAll(async () => {
    await h.close?.();
  });
  return h;
}

export const { acme, northwind, globex, initech } = SEED_BRANDS;

/** A note the bot posts when someone changes what the channel receives (not an alert). */
export const isChannelNote = (m: StoredMessage): boolean => m.metadata?.event_type === CHANNEL_NOTE_EVENT;

/** The same, for a recorded chat.postMessage call's arguments. */
export const isChannelNoteCall = (args: Record<string, unknown>): boolean =>
  (args['metadata'] as { event_type?: unknown } | undefined)?.event_type === CHANNEL_NOTE_EVENT;

/** Every text a message shows (fallback and blocks), for `toContain` checks. */
export const messageText = (m: StoredMessage): string => `${m.text ?? ''}\n${JSON.stringify(m.blocks ?? [])}`;
