/**
 * The weekly summary (opt-in per subscription: `weekly=on`): per brand, the citation feed,
 * the citation history and the crawler periods of the week, fetched once for every channel
 * whose week it is, and per channel the alerts it got; composed and written to the outbox
 * with its chart (the digest's chart, over the week's days), in one transaction with the
 * subscription's weekly state.
 *
 * Once per week per channel, across restarts and replicas: the outbox row's dedupe key names
 * the channel, brand and the summary's day, and the weekly state (the last day written) is
 * read again inside the transaction that writes the row, so two processes or two runs write
 * one row. A summary missed while the bot was down goes out once, marked late
 * (alerts/weekly-due.ts). `run-job weekly` posts the summary of the 7 days before today for
 * every channel that has weekly on, whatever the day; one already written for today goes
 * out at once.
 *
 * The rows are of the digest kind (posted like one, charts after their text); the relay
 * tells them from digests by their key, since a channel can want the weekly summary without
 * the daily digest.
 */

import { composeWeekly } from '../alerts/compose-weekly.js';
import {
  type WeeklyDue,
  weeklyDue,
  weeklyNow,
  weeklySchedule,
  weeklyScheduleKey,
  weekWindowMs,
} from '../alerts/weekly-due.js';
import type { CitationHistoryResponse } from '../api/schemas/citations.js';
import { buildWeeklyMessage } from '../messages/weekly-message.js';
import type { OutboxChartDay } from '../store/outbox-repo.js';
import type { Subscription } from '../store/subscriptions-repo.js';
import { fetchCrawlerPeriods } from '../use-cases/crawler-periods.js';
import { channelDedupeKey, enqueueForChannel, noCounts } from '../use-cases/enqueue-alerts.js';
import { digestSection as section } from '../use-cases/fetch-digest-sections.js';
import { weeklyAlertCounts } from '../use-cases/weekly-alert-counts.js';
import { DAY_MS } from '../utc-days.js';
import { crawlerDays, digestChartPayload } from './digest-chart-row.js';
import type { JobContext } from './job-context.js';
import type { JobDefinition, JobRunInfo } from './job-definition.js';

/** The summary due for `sub` now (run-job: today's, whatever the day), or null. */
export async function weeklyDueFor(
  ctx: Pick<JobContext, 'levels' | 'deps'>,
  sub: Subscription,
  run: Pick<JobRunInfo, 'nowMs' | 'force'>,
): Promise<WeeklyDue | null> {
  if (!sub.settings.weekly || sub.pausedReason) return null;
  const schedule = weeklySchedule(sub.settings, ctx.deps.config.defaultTimezone);
  if (run.force) return weeklyNow(run.nowMs, schedule.timeZone);
  const state = await ctx.levels.getWeekly(sub.channelId, sub.brandId);
  return weeklyDue(run.nowMs, schedule, state, sub.createdAtMs);
}

/** Days to ask the feed for: back to the week's start (1–30, the API's bounds). */
const daysSince = (fromMs: number, nowMs: number, extra: number, min: number, max: number) =>
  Math.min(max, Math.max(min, Math.ceil((nowMs - fromMs) / DAY_MS) + extra));

/** The history's days inside the week, for the chart. */
function weekDays(
  history: CitationHistoryResponse | { error: string },
  week: WeeklyDue,
): OutboxChartDay[] | null {
  if ('error' in history) return null;
  const days = history.brand_time_series
    .map((p) => ({ date: p.date.slice(0, 10), value: p.total_citations }))
    .filter((d) => d.date >= week.start && d.date <= week.end)
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  return days.length > 0 ? days : null;
}

/** What one week of one brand is made of, fetched once for every channel whose week it is. */
async function fetchWeek(ctx: JobContext, brandId: string, week: WeeklyDue, fromMs: number, nowMs: number) {
  const { api } = ctx.deps;
  const feed = await section(() =>
    api.getCitationFeed({ brandId, daysBack: daysSince(fromMs, nowMs, 0, 1, 30) }, ctx.call),
  );
  const history = await section(() =>
    api.getCitationHistory({ brandId, days: daysSince(fromMs, nowMs, 8, 7, 365) }, ctx.call),
  );
  // The crawler's whole (UTC) days ending the day before the summary's day: the same dates.
  const crawler = await section(() =>
    fetchCrawlerPeriods(api, brandId, Date.parse(`${week.date}T00:00:00Z`), ctx.call),
  );
  return { feed, history, crawler };
}

type Week = Awaited<ReturnType<typeof fetchWeek>>;

/** One channel's summary and chart, written with its weekly state; true when a row was written. */
async function writeWeekly(
  ctx: JobContext,
  sub: Subscription,
  brand: { id: string; name: string },
  data: Week,
  run: JobRunInfo,
): Promise<boolean> {
  // Read again inside the transaction: another process may have written it meanwhile.
  const current = await ctx.subscriptions.getById(sub.id);
  if (!current) return false;
  const due = await weeklyDueFor(ctx, current, run);
  if (!due) return false;
  const schedule = weeklySchedule(current.settings, ctx.deps.config.defaultTimezone);
  const window = weekWindowMs(due, schedule.timeZone);
  const alerts = await section(() =>
    weeklyAlertCounts(
      ctx.store.alertHistory,
      { channelId: sub.channelId, brandId: brand.id, ...window },
      ctx.store.alertStates,
    ),
  );
  const summary = composeWeekly({ brand, week: due, window, ...data, alerts });
  const dedupeKey = channelDedupeKey(sub.channelId, summary.key);
  const message = {
    kind: 'digest' as const,
    key: summary.key,
    build: (k: string) => buildWeeklyMessage(summary, { dedupeKey: k }),
  };
  const created = await enqueueForChannel(ctx.outbox, sub, message, run.nowMs);
  if (!created && run.force) await ctx.outbox.sendNow(dedupeKey, run.nowMs);
  const chart = digestChartPayload({
    brandName: brand.name,
    citations: weekDays(data.history, due),
    crawlerVisits: 'error' in data.crawler ? null : crawlerDays(data.crawler),
    digestDedupeKey: dedupeKey,
  });
  if (chart) {
    const chartKey = `chart:${summary.key}`;
    const chartCreated = await enqueueForChannel(
      ctx.outbox,
      sub,
      { kind: 'chart', key: chartKey, build: () => chart },
      run.nowMs,
    );
    if (!chartCreated && run.force)
      await ctx.outbox.sendNow(channelDedupeKey(sub.channelId, chartKey), run.nowMs);
  }
  await ctx.levels.putWeekly(
    sub.channelId,
    sub.brandId,
    { lastDate: due.date, schedule: weeklyScheduleKey(schedule) },
    run.nowMs,
  );
  return created;
}

export const weeklyJob: JobDefinition = {
  name: 'weekly',
  async select(ctx, run) {
    const due: Subscription[] = [];
    for (const s of await ctx.subscriptions.listActive()) if (await weeklyDueFor(ctx, s, run)) due.push(s);
    return due;
  },
  async runBrand(ctx, brand, subs, run) {
    // Channels in other zones or on other days may be due for other weeks: one fetch per week.
    const weeks = new Map<string, { due: WeeklyDue; fromMs: number; subs: Subscription[] }>();
    for (const sub of subs) {
      const due = await weeklyDueFor(ctx, sub, run);
      if (!due) continue;
      const { fromMs } = weekWindowMs(
        due,
        weeklySchedule(sub.settings, ctx.deps.config.defaultTimezone).timeZone,
      );
      const w = weeks.get(due.date) ?? { due, fromMs, subs: [] };
      w.fromMs = Math.min(w.fromMs, fromMs);
      w.subs.push(sub);
      weeks.set(due.date, w);
    }
    const counts = noCounts();
    for (const w of weeks.values()) {
      const data = await fetchWeek(ctx, brand.id, w.due, w.fromMs, run.nowMs);
      await ctx.store.transaction(async () => {
        for (const sub of w.subs) if (await writeWeekly(ctx, sub, brand, data, run)) counts.messages += 1;
      });
    }
    return counts;
  },
};
