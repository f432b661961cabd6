/** What every console command works with. */

import type { AppDeps } from '../../app-deps.js';
import type { JobTarget } from '../../use-cases/job-names.js';
import type { ConsoleIo } from './console-io.js';
import type { ConsoleState } from './console-state.js';
import type { DemoTiming } from './demo-timing.js';
import type { DemoStack } from './start-demo-stack.js';

export interface ConsoleContext {
  stack: DemoStack;
  io: ConsoleIo;
  state: ConsoleState;
  timing: DemoTiming;
  /** The demo user and channel (local Slack's defaults). */
  userId: string;
  channelId: string;
  /** Runs the scheduled jobs once (src/jobs/run-jobs.ts; tests pass their own). */
  runJobs: RunJobs;
}

export type RunJobs = (deps: AppDeps, job: JobTarget) => Promise<unknown>;
