/** How long the console waits for the service. Tests shorten them. */
export interface DemoTiming {
  /** Longest wait for a command or action to be handled. */
  replyTimeoutMs: number;
  /** A reply is complete once nothing new reached Slack for this long… */
  quietMs: number;
  /** …or after this long at most (follow-up updates included). */
  followMs: number;
  /** Longest `:wait` for background work (a content ideas refresh polls every 10 s). */
  backgroundMs: number;
}

export const DEFAULT_TIMING: DemoTiming = {
  replyTimeoutMs: 15_000,
  quietMs: 400,
  followMs: 3_000,
  backgroundMs: 30_000,
};
