/**
 * What the jobs read of the configuration, and nothing else: no API key, Slack token or
 * database URL. Those reach only the clients that send them (the API client and the bot's
 * Slack client, built in app-deps.ts; pg-boss, given the URL by the scheduler extension),
 * so a job, a log line of a job or a test of one cannot leak them.
 */
import type { Retention } from '../config.js';

export interface JobSettings {
  /** DEFAULT_TIMEZONE: the digests' and weekly summaries' time, and alert holds, where a channel set none. */
  defaultTimezone: string;
  /** SLACK_OPS_CHANNEL: where the bot reports its own trouble; unset = logs and `status` only. */
  opsChannel: string | undefined;
  /** How long the daily housekeeping keeps each kind of row. */
  retention: Retention;
}

/** Only the jobs' settings, copied out of a wider config (the process's, with its secrets). */
export function jobSettingsOf(config: JobSettings): JobSettings {
  return {
    defaultTimezone: config.defaultTimezone,
    opsChannel: config.opsChannel,
    retention: config.retention,
  };
}
