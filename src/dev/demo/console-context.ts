/** What every console command works with. */
import type { ConsoleIo } from './console-io.js';
import type { ConsoleState } from './console-state.js';
import type { DemoTiming } from './demo-timing.js';
import type { RunJobsLookup } from './load-run-jobs.js';
import type { DemoStack } from './start-demo-stack.js';

export interface ConsoleContext {
  stack: DemoStack;
  io: ConsoleIo;
  state: ConsoleState;
  timing: DemoTiming;
  /** The demo user and channel (local Slack's defaults). */
  userId: string;
  channelId: string;
  /** Finds the alerting work's runJobs (tests pass their own). */
  loadRunJobs: () => Promise<RunJobsLookup>;
}
