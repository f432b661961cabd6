/**
 * The alerting part of `/visibility status`: each job's last and next run, the polling
 * plan against the daily quota (and its warning when the subscriptions do not fit),
 * repeated failures, the bot's health flags, and muted or paused subscriptions. Local
 * reads only (the database and the scheduler's published state), like every status
 * section: it must answer when the key is rejected or the quota spent.
 */
import { currentPollingPlan } from '../../../jobs/current-polling-plan.js';
import { JOB_NAMES, type JobName } from '../../../jobs/job-names.js';
import { asSchedulerSnapshot, type SchedulerSnapshot } from '../../../jobs/scheduler-snapshot.js';
import { BLOCK_KIT_LIMITS as L } from '../../../messages/block-kit-limit-table.js';
import type { KnownBlock } from '../../../messages/block-kit-types.js';
import { channelMention, escapeMrkdwn, joinMrkdwn, type Mrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import { describeFlag } from '../../../messages/ops-message.js';
import { truncatePlain } from '../../../messages/truncate-mrkdwn.js';
import { slackDate } from '../../../messages/user-facing-error.js';
import { createHealthFlagsRepo } from '../../../store/health-flags-repo.js';
import { createJobRunsRepo } from '../../../store/job-runs-repo.js';
import { createSubscriptionsRepo } from '../../../store/subscriptions-repo.js';
import { chunkSections } from '../../views/chunk-sections.js';
import type { StatusSection, StatusSource } from './status-view.js';

const num = (n: number) => escapeMrkdwn(Math.round(n).toLocaleString('en-US'));
const MAX_LISTED = 10;

function countsText(counts: Record<string, number>): Mrkdwn {
  const parts: Mrkdwn[] = [];
  if (counts['brands'] !== undefined)
    parts.push(mrkdwn`${counts['brands']} brand${counts['brands'] === 1 ? mrkdwn`` : mrkdwn`s`}`);
  if (counts['messages'])
    parts.push(mrkdwn`${counts['messages']} message${counts['messages'] === 1 ? mrkdwn`` : mrkdwn`s`}`);
  if (counts['failed']) parts.push(mrkdwn`${counts['failed']} failed`);
  return parts.length > 0 ? mrkdwn` (${joinMrkdwn(parts, mrkdwn`, `)})` : mrkdwn``;
}

function jobLines(source: StatusSource, snap: SchedulerSnapshot | null, plan: PlanView): Mrkdwn[] {
  const { deps, nowMs } = source;
  const runs = createJobRunsRepo(deps.db, deps.clock);
  const lines = [mrkdwn`*Scheduled jobs*`];
  if (!snap?.running) {
    lines.push(
      mrkdwn`_The scheduler is not running in this process: jobs run only with \`visibility-bot run-job\`._`,
    );
  }
  for (const job of JOB_NAMES) {
    const state = snap?.jobs[job as JobName];
    const run = runs.recent(1, job)[0];
    const every =
      job === 'digest' ? mrkdwn`daily, per subscription` : mrkdwn`every ${plan.intervalsHours[job] ?? 0} h`;
    const lastText = run
      ? mrkdwn`last ${slackDate(run.startedAtMs)} ${run.ok === null ? mrkdwn`running` : run.ok ? mrkdwn`ok` : mrkdwn`:x: failed`}${countsText(run.counts)}`
      : mrkdwn`never run`;
    const nextText =
      state?.nextRunAtMs != null
        ? mrkdwn` · next ${state.nextRunAtMs <= nowMs ? mrkdwn`now` : slackDate(state.nextRunAtMs)}`
        : mrkdwn``;
    lines.push(mrkdwn`• \`${escapeMrkdwn(job)}\` ${every}: ${lastText}${nextText}`);
    const streak = runs.failureStreak(job);
    if (run && run.ok === false && run.error) {
      lines.push(
        mrkdwn`      ${streak >= 3 ? mrkdwn`:warning: failed ${streak} runs in a row; ` : mrkdwn``}last error: ${escapeMrkdwn(truncatePlain(run.error, 300))}`,
      );
    }
  }
  return lines;
}

type PlanView = SchedulerSnapshot['plan'];

/** The scheduler's plan when it runs in this process, else the plan it would make now. */
function planView(source: StatusSource, snap: SchedulerSnapshot | null): PlanView {
  if (snap) return snap.plan;
  const p = currentPollingPlan(source.deps);
  return {
    brands: p.brands,
    dailyLimit: p.dailyLimit,
    budgetPerDay: p.budgetPerDay,
    callsPerDay: p.callsPerDay,
    callsPerBrandPerDay: p.callsPerBrandPerDay,
    maxBrands: p.maxBrands,
    intervalsHours: {
      citations: p.intervals.citationsHours,
      crawler: p.intervals.crawlerHours,
      'ai-pages': p.intervals.aiPagesHours,
    },
    stretched: p.stretched,
    warning: p.warning,
  };
}

function planLines(source: StatusSource, snap: SchedulerSnapshot | null, plan: PlanView): Mrkdwn[] {
  const budget =
    plan.budgetPerDay === null || plan.dailyLimit === null
      ? mrkdwn`the plan has no daily limit`
      : mrkdwn`of the ${num(plan.budgetPerDay)} the bot allows itself (80 % of ${num(plan.dailyLimit)} a day)`;
  const lines = [
    mrkdwn`*Polling plan:* ${num(plan.brands)} subscribed brand${plan.brands === 1 ? mrkdwn`` : mrkdwn`s`} → about ${num(plan.callsPerDay)} API calls a day, ${budget}.`,
    mrkdwn`About ${escapeMrkdwn(plan.callsPerBrandPerDay.toFixed(1))} calls per brand per day${plan.maxBrands == null ? mrkdwn`` : mrkdwn`: this key can watch about ${num(plan.maxBrands)} brands at these settings`}.`,
  ];
  if (plan.stretched) {
    const i = plan.intervalsHours;
    lines.push(
      mrkdwn`Intervals stretched to fit the quota: citations every ${i.citations} h, crawler every ${i.crawler} h, AI Pages every ${i['ai-pages']} h.`,
    );
  }
  if (plan.warning) lines.push(mrkdwn`:warning: ${escapeMrkdwn(plan.warning)}`);
  if (snap?.quotaWaitUntilMs != null && snap.quotaWaitUntilMs > source.nowMs) {
    lines.push(
      mrkdwn`:no_entry: The daily quota is spent: jobs wait until it resets ${slackDate(snap.quotaWaitUntilMs)}.`,
    );
  }
  return lines;
}

function healthLines(source: StatusSource): Mrkdwn[] {
  const flags = createHealthFlagsRepo(source.deps.db).active();
  if (flags.length === 0) return [mrkdwn`*Bot health:* :large_green_circle: no problems reported.`];
  return [
    mrkdwn`*Bot health*`,
    ...flags.map((f) => {
      const { problem } = describeFlag(f.key);
      return mrkdwn`• :red_circle: ${escapeMrkdwn(problem)} since ${slackDate(f.raisedAtMs)}${f.detail ? mrkdwn`: ${escapeMrkdwn(truncatePlain(f.detail, 300))}` : mrkdwn``}`;
    }),
  ];
}

function subscriptionLines(source: StatusSource): Mrkdwn[] {
  const { deps, nowMs } = source;
  const all = createSubscriptionsRepo(deps.db).listAll();
  const channels = new Set(all.map((s) => s.channelId)).size;
  const lines = [
    mrkdwn`*Subscriptions:* ${all.length} in ${channels} channel${channels === 1 ? mrkdwn`` : mrkdwn`s`}.`,
  ];
  const muted = all.filter((s) => s.mutedUntilMs !== null && s.mutedUntilMs > nowMs);
  const paused = all.filter((s) => s.pausedReason !== null);
  const where = (s: (typeof all)[number]) =>
    mrkdwn`*${escapeMrkdwn(s.brandName)}* in ${channelMention(s.channelId)}`;
  for (const s of muted.slice(0, MAX_LISTED))
    lines.push(mrkdwn`• :no_bell: ${where(s)} muted until ${slackDate(s.mutedUntilMs!)}`);
  if (muted.length > MAX_LISTED) lines.push(mrkdwn`• …and ${muted.length - MAX_LISTED} more muted`);
  for (const s of paused.slice(0, MAX_LISTED))
    lines.push(mrkdwn`• :double_vertical_bar: ${where(s)} paused: ${escapeMrkdwn(s.pausedReason!)}`);
  if (paused.length > MAX_LISTED) lines.push(mrkdwn`• …and ${paused.length - MAX_LISTED} more paused`);
  return lines;
}

export function schedulerStatusBlocks(source: StatusSource): KnownBlock[] {
  const snap = asSchedulerSnapshot(source.deps.metrics.schedulerState());
  const plan = planView(source, snap);
  return chunkSections(
    [
      ...jobLines(source, snap, plan),
      mrkdwn``,
      ...planLines(source, snap, plan),
      mrkdwn``,
      ...healthLines(source),
      mrkdwn``,
      ...subscriptionLines(source),
    ],
    L.sectionText,
  );
}

export const schedulerStatusSection: StatusSection = {
  name: 'Scheduled jobs',
  blocks: schedulerStatusBlocks,
};
