/**
 * The scheduler's tasks that node-cron holds right now, by name (scheduler.ts names them
 * `visibility-…`): whether node-cron would fire the ticks is read from node-cron itself,
 * not by waiting to see whether it does.
 */
import cron from 'node-cron';

export function schedulerCronTasks(): string[] {
  return [...cron.getTasks().values()]
    .map((t) => t.name ?? '')
    .filter((name) => name.startsWith('visibility-'));
}
