/**
 * The alerting part of `/visibility status`: each job's last and next run, the polling
 * plan against the daily quota (and its warning when the subscriptions do not fit),
 * repeated failures, the bot's health flags, and muted or paused subscriptions, from what
 * src/use-cases/collect-status.ts gathered.
 */

import { BLOCK_KIT_LIMITS as L } from '../../../messages/block-kit-limit-table.js';
import type { KnownBlock } from '../../../messages/block-kit-types.js';
import { formatCount } from '../../../messages/format-number.js';
import {
  channelMention,
  escapeMrkdwn,
  joinMrkdwn,
  type Mrkdwn,
  mrkdwn,
  slackDate,
} from '../../../messages/mrkdwn.js';
import { describeFlag } from '../../../messages/ops-message.js';
import { truncatePlain } from '../../../messages/truncate-mrkdwn.js';
import type { PlanStatus, SchedulerStatus } from '../../../use-cases/collect-status.js';
import { chunkSections } from '../../views/chunk-sections.js';

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

function jobLines(status: SchedulerStatus, nowMs: number): Mrkdwn[] {
  const { plan } = status;
  const lines = [mrkdwn`*Scheduled jobs*`];
  if (!status.running) {
    lines.push(
      mrkdwn`_The scheduler is not running in this process: jobs run only with \`visibility-bot run-job\`._`,
    );
  }
  for (const { name: job, lastRun: run, failureStreak: streak, nextRunAtMs, prepareAtMs } of status.jobs) {
    const every =
      job === 'digest'
        ? mrkdwn`daily, per subscription`
        : job === 'weekly'
          ? mrkdwn`weekly, per subscription that has it on`
          : mrkdwn`every ${plan.intervalsHours[job] ?? 0} h`;
    const lastText = run
      ? mrkdwn`last ${slackDate(run.startedAtMs)} ${run.ok === null ? mrkdwn`running` : run.ok ? mrkdwn`ok` : mrkdwn`:x: failed`}${countsText(run.counts)}`
      : mrkdwn`never run`;
    const nextText =
      nextRunAtMs !== null
        ? mrkdwn` · next ${nextRunAtMs <= nowMs ? mrkdwn`now` : slackDate(nextRunAtMs)}${
            prepareAtMs != null && nextRunAtMs > nowMs
              ? mrkdwn`, prepared from ${prepareAtMs <= nowMs ? mrkdwn`now` : slackDate(prepareAtMs)}`
              : mrkdwn``
          }`
        : mrkdwn``;
    lines.push(mrkdwn`• \`${escapeMrkdwn(job)}\` ${every}: ${lastText}${nextText}`);
    if (run && run.ok === false && run.error) {
      lines.push(
        mrkdwn`      ${streak >= 3 ? mrkdwn`:warning: failed ${streak} runs in a row; ` : mrkdwn``}last error: ${escapeMrkdwn(truncatePlain(run.error, 300))}`,
      );
    }
  }
  return lines;
}

function planLines(plan: PlanStatus, quotaWaitUntilMs: number | null, nowMs: number): Mrkdwn[] {
  const budget =
    plan.budgetPerDay === null || plan.dailyLimit === null
      ? mrkdwn`the plan has no daily limit`
      : mrkdwn`of the ${formatCount(Math.round(plan.budgetPerDay))} the bot allows itself (80 % of ${formatCount(plan.dailyLimit)} a day)`;
  const lines = [
    mrkdwn`*Polling plan:* ${formatCount(plan.brands)} subscribed brand${plan.brands === 1 ? mrkdwn`` : mrkdwn`s`} → about ${formatCount(Math.round(plan.callsPerDay))} API calls a day, ${budget}.`,
    mrkdwn`About ${formatCount(plan.callsPerBrandPerDay)} calls per brand per day${plan.maxBrands == null ? mrkdwn`` : mrkdwn`: this key can watch about ${formatCount(plan.maxBrands)} brands at these settings`}.`,
  ];
  if (plan.stretched) {
    const i = plan.intervalsHours;
    lines.push(
      mrkdwn`Intervals stretched to fit the quota: citations every ${i.citations} h, crawler every ${i.crawler} h, AI Pages every ${i['ai-pages']} h.`,
    );
  }
  if (plan.warning) lines.push(mrkdwn`:warning: ${escapeMrkdwn(plan.warning)}`);
  if (quotaWaitUntilMs !== null && quotaWaitUntilMs > nowMs) {
    lines.push(
      mrkdwn`:no_entry: The daily quota is spent: jobs wait until it resets ${slackDate(quotaWaitUntilMs)}.`,
    );
  }
  return lines;
}

function healthLines(flags: SchedulerStatus['healthFlags']): Mrkdwn[] {
  if (flags.length === 0) return [mrkdwn`*Bot health:* :large_green_circle: no problems reported.`];
  return [
    mrkdwn`*Bot health*`,
    ...flags.map((f) => {
      const { problem } = describeFlag(f.key);
      return mrkdwn`• :red_circle: ${escapeMrkdwn(problem)} since ${slackDate(f.raisedAtMs)}${f.detail ? mrkdwn`: ${escapeMrkdwn(truncatePlain(f.detail, 300))}` : mrkdwn``}`;
    }),
  ];
}

function subscriptionLines(subs: SchedulerStatus['subscriptions']): Mrkdwn[] {
  const { total, channels, muted, paused } = subs;
  const lines = [
    mrkdwn`*Subscriptions:* ${total} in ${channels} channel${channels === 1 ? mrkdwn`` : mrkdwn`s`}.`,
  ];
  const where = (s: (typeof muted)[number]) =>
    mrkdwn`*${escapeMrkdwn(s.brandName)}* in ${channelMention(s.channelId)}`;
  for (const s of muted.slice(0, MAX_LISTED))
    lines.push(mrkdwn`• :no_bell: ${where(s)} muted until ${slackDate(s.mutedUntilMs!)}`);
  if (muted.length > MAX_LISTED) lines.push(mrkdwn`• …and ${muted.length - MAX_LISTED} more muted`);
  for (const s of paused.slice(0, MAX_LISTED))
    lines.push(mrkdwn`• :double_vertical_bar: ${where(s)} paused: ${escapeMrkdwn(s.pausedReason!)}`);
  if (paused.length > MAX_LISTED) lines.push(mrkdwn`• …and ${paused.length - MAX_LISTED} more paused`);
  return [...lines, ...crawlerRuleLines(subs.crawlerRules ?? [])];
}

/** "Crawler alerts: *Acme* in #x: range: 5 weeks of history", one line per subscription. */
function crawlerRuleLines(rules: NonNullable<SchedulerStatus['subscriptions']['crawlerRules']>): Mrkdwn[] {
  if (rules.length === 0) return [];
  const lines = [mrkdwn`*Crawler alerts* (the usual range or the fixed drop level, and why):`];
  for (const r of rules.slice(0, MAX_LISTED))
    lines.push(
      mrkdwn`• *${escapeMrkdwn(r.brandName)}* in ${channelMention(r.channelId)}: ${escapeMrkdwn(r.why)}`,
    );
  if (rules.length > MAX_LISTED) lines.push(mrkdwn`• …and ${rules.length - MAX_LISTED} more`);
  return lines;
}

export function schedulerStatusBlocks(status: SchedulerStatus, nowMs: number): KnownBlock[] {
  return chunkSections(
    [
      ...jobLines(status, nowMs),
      mrkdwn``,
      ...planLines(status.plan, status.quotaWaitUntilMs, nowMs),
      mrkdwn``,
      ...healthLines(status.healthFlags),
      mrkdwn``,
      ...subscriptionLines(status.subscriptions),
    ],
    L.sectionText,
  );
}
