import { type CurrentPlan, currentPollingPlan } from '../../use-cases/current-polling-plan.js';
import type { SchedulerContext } from './scheduler-context.js';

/**
 * Reads the polling plan (intervals the daily quota allows for the brands subscribed) and
 * keeps it for the snapshot. Its warning, or the news that intervals were stretched, is
 * logged when it changes, not at every tick.
 */
export async function replan(ctx: SchedulerContext): Promise<CurrentPlan> {
  const { state, logger } = ctx;
  const p = await currentPollingPlan(ctx.deps);
  state.plan = p;
  if (p.warning !== state.warned) {
    if (p.warning) logger.warn({ brands: p.brands, callsPerDay: p.callsPerDay }, p.warning);
    else if (p.stretched)
      logger.info(
        { intervals: p.intervals, brands: p.brands },
        'poll intervals stretched to fit the daily quota',
      );
    state.warned = p.warning;
  }
  return p;
}
