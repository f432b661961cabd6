/**
 * The daily digest (docs/alert-semantics.md): per brand, top content ideas, the citation feed of the last
 * day, the crawler periods and AI Pages, composed once per subscribed channel, for the
 * local date of that channel's digest time in its time zone. Only the ideas are always
 * fetched: the other three are what the polls last saw when that is fresh (the citation
 * and AI Pages polls of the last day, the crawler poll of today, which reads whole days
 * ending yesterday), so a digest costs one call instead of four when the polls keep up.
 *
 * Due: at the subscription's digest time; a digest missed while the bot was down is sent
 * once, marked late, not once per missed day (digestDue). The scheduler prepares a digest
 * up to `digestLeadMs` ahead (fetching its ideas, reusing the polls) and writes its outbox
 * row with `sendAfterMs` = the digest time, so it posts at its local time instead of after
 * a whole day's fetching; the relay does not post it earlier. `run-job digest` posts
 * whatever the hour, for today's local date, and a digest already prepared for today goes
 * out at once. The subscription is marked sent in the transaction that writes the outbox
 * row, and the row's dedupe key names the channel, brand and date, so a digest is never
 * sent twice for one day.
 *
 * A section whose request failed says so and the others still go out; only a rejected key
 * or a spent quota stops the digest (the runner handles those).
 */

import { composeDigest, type DigestInput } from '../alerts/compose-digest.js';
import type { CrawlerPeriods } from '../alerts/detect-crawler.js';
import { type DigestDue, digestDue } from '../alerts/digest-due.js';
import type { BrandRef } from '../alerts/types.js';
import { zonedParts } from '../alerts/zoned-time.js';
import { buildDigestMessage } from '../messages/digest-message.js';
import type { OutboxChartDay, OutboxPayload } from '../store/outbox-repo.js';
import type { PollObservation, PollSource } from '../store/poll-observations-repo.js';
import type { Subscription } from '../store/subscriptions-repo.js';
import { fetchCrawlerPeriods } from '../use-cases/crawler-periods.js';
import { channelDedupeKey, enqueueForChannel, noCounts } from '../use-cases/enqueue-alerts.js';
import {
  DIGEST_IDEAS_LIMIT,
  fetchAiPagesInput,
  digestSection as section,
} from '../use-cases/fetch-digest-sections.js';
import { utcDay } from '../utc-days.js';
import type { AiPagesObservation } from './ai-pages-job.js';
import type { CitationsObservation } from './citations-job.js';
import {
  citationDays,
  crawlerDays,
  DIGEST_CHART_DAYS,
  digestChartPayload,
  withNativeDigestChart,
} from './digest-chart-row.js';
import type { JobContext } from './job-context.js';
import type { JobDefinition, JobRunInfo } from './job-definition.js';

/** A poll's citation feed or AI Pages record this recent stands in for a fetch. */
const REUSE_MAX_AGE_MS = 24 * 3_600_000;

/**
 * A poll's observation when it is fresh enough for the digest to show instead of fetching.
 * `postAtMs` (default `nowMs`) is when the digest will be read: a digest prepared ahead
 * must not show a citation feed or AI Pages record that is over a day old by then. The
 * crawler data is whole days ending yesterday as of `nowMs`, the only day it can know.
 */
export function freshObservation<T>(
  seen: PollObservation<T> | null,
  source: PollSource,
  nowMs: number,
  postAtMs = nowMs,
): T | null {
  if (!seen || seen.observedAtMs > nowMs) return null;
  const fresh =
    source === 'crawler'
      ? utcDay(seen.observedAtMs) === utcDay(nowMs)
      : Math.max(nowMs, postAtMs) - seen.observedAtMs < REUSE_MAX_AGE_MS;
  return fresh ? seen.data : null;
}

/** A digest to write now: due already (post at once), or due within the lead (post at its time). */
interface DigestToWrite extends DigestDue {
  /** Not posted before this: the digest time of a digest prepared ahead; null: at once. */
  sendAfterMs: number | null;
}

export function digestDueFor(
  sub: Subscription,
  defaultTimezone: string,
  run: JobRunInfo,
): DigestToWrite | null {
  const tz = sub.settings.timezone ?? defaultTimezone;
  if (run.force)
    return { date: zonedParts(run.nowMs, tz).date, scheduledAtMs: run.nowMs, late: false, sendAfterMs: null };
  const { digestTime } = sub.settings;
  // A digest already due (on time, or missed and sent once late) goes first, as it always did.
  const now = digestDue(run.nowMs, digestTime, tz, sub.lastDigestDate, sub.createdAtMs);
  if (now) return { ...now, sendAfterMs: null };
  const lead = run.digestLeadMs ?? 0;
  if (lead <= 0) return null;
  const ahead = digestDue(run.nowMs + lead, digestTime, tz, sub.lastDigestDate, sub.createdAtMs);
  if (!ahead || ahead.scheduledAtMs <= run.nowMs) return null;
  // Posted at its time, so never late, whatever digestDue says about `now + lead`.
  return { ...ahead, late: false, sendAfterMs: ahead.scheduledAtMs };
}

export const digestJob: JobDefinition = {
  name: 'digest',
  select: async (ctx, run) =>
    (await ctx.subscriptions.listActive('digest')).filter(
      (s) => digestDueFor(s, ctx.deps.config.defaultTimezone, run) !== null,
    ),
  async runBrand(ctx, brand, subs, run) {
    const sources = await gatherDigestSources(ctx, brand, subs, run);
    return ctx.store.transaction(async () => {
      const counts = noCounts();
      for (const sub of subs) if (await writeDigest(ctx, brand, sub, run, sources)) counts.messages += 1;
      return counts;
    });
  },
};

/** What a brand's digests are made of, fetched or reused once for all its channels. */
type DigestSources = Pick<DigestInput, 'ideas' | 'feed' | 'crawler' | 'aiPages'> & {
  /** The chart's days; null when no channel wants the chart. */
  chartDays: { citations: OutboxChartDay[] | null; crawlerVisits: OutboxChartDay[] | null } | null;
};

/**
 * The ideas (always fetched), and the feed, crawler periods and AI Pages the polls saw
 * when that is fresh enough, fetched otherwise; a section whose request failed says so.
 */
async function gatherDigestSources(
  ctx: JobContext,
  brand: BrandRef,
  subs: readonly Subscription[],
  run: JobRunInfo,
): Promise<DigestSources> {
  const { api } = ctx.deps;
  // One after the other: the limiter paces them anyway, and a rejected key then costs one call.
  const ideas = await section(async () => {
    const r = await api.getContentIdeas(
      { brandId: brand.id, status: 'active', limit: DIGEST_IDEAS_LIMIT },
      ctx.call,
    );
    return r.ideas;
  });
  // Prepared ahead: the data must still be fresh when the last of these digests posts.
  const postAtMs = Math.max(
    run.nowMs,
    ...subs.map((s) => digestDueFor(s, ctx.deps.config.defaultTimezone, run)?.sendAfterMs ?? 0),
  );
  const seen = async <T>(source: PollSource) =>
    freshObservation(await ctx.observations.get<T>(brand.id, source), source, run.nowMs, postAtMs);
  const polled = await seen<CitationsObservation>('citations');
  const feed =
    polled?.citations ??
    polled?.feed ??
    (await section(() => api.getCitationFeed({ brandId: brand.id, daysBack: 1 }, ctx.call)));
  const crawler =
    (await seen<CrawlerPeriods>('crawler')) ??
    (await section(() => fetchCrawlerPeriods(api, brand.id, run.nowMs, ctx.call)));
  const aiPages =
    (await seen<AiPagesObservation>('ai-pages'))?.input ??
    (await section(() => fetchAiPagesInput(api, brand.id, ctx.call)));
  // The chart's citation days: asked for only when a channel wants the chart; a failure
  // leaves the chart with the crawler days alone (or no chart), never the digest short.
  const wantsChart = subs.some((s) => s.settings.digestChart);
  const chartDays = wantsChart
    ? {
        citations: citationDays(
          await section(() =>
            api.getCitationHistory({ brandId: brand.id, days: DIGEST_CHART_DAYS }, ctx.call),
          ),
        ),
        crawlerVisits: crawlerDays(crawler),
      }
    : null;
  return { ideas, feed, crawler, aiPages, chartDays };
}

/**
 * One channel's digest (and its chart row), inside the brand's transaction, marked sent
 * with it; whether a new message was written.
 */
async function writeDigest(
  ctx: JobContext,
  brand: BrandRef,
  sub: Subscription,
  run: JobRunInfo,
  sources: DigestSources,
): Promise<boolean> {
  // Read again inside the transaction: another process may have sent it meanwhile.
  const current = await ctx.subscriptions.getById(sub.id);
  if (!current?.digest || current.pausedReason) return false;
  const due = digestDueFor(current, ctx.deps.config.defaultTimezone, run);
  if (!due) return false;
  const { chartDays, ...input } = sources;
  const digest = composeDigest({ brand, date: due.date, late: due.late, ...input });
  const chart =
    current.settings.digestChart && chartDays
      ? digestChartPayload({
          brandName: brand.name,
          ...chartDays,
          digestDedupeKey: channelDedupeKey(sub.channelId, digest.key),
        })
      : null;
  // Slack draws the chart inside the digest unless the channel chose images (then,
  // or when it would not fit, the chart follows as an image in the thread).
  const dedupeKey = channelDedupeKey(sub.channelId, digest.key);
  const text: OutboxPayload = buildDigestMessage(digest, { dedupeKey });
  const native = chart && current.settings.charts === 'native' ? withNativeDigestChart(text, chart) : null;
  const message = {
    kind: 'digest' as const,
    key: digest.key,
    build: () => native ?? text,
    sendAfterMs: due.sendAfterMs,
  };
  const created = await enqueueForChannel(ctx.outbox, sub, message, run.nowMs);
  // run-job digest: today's digest, prepared ahead by the scheduler, goes out now.
  if (!created && run.force) await ctx.outbox.sendNow(channelDedupeKey(sub.channelId, digest.key), run.nowMs);
  if (chart && !native) {
    const chartKey = `chart:${digest.key}`;
    const chartCreated = await enqueueForChannel(
      ctx.outbox,
      sub,
      { kind: 'chart', key: chartKey, build: () => chart, sendAfterMs: due.sendAfterMs },
      run.nowMs,
    );
    if (!chartCreated && run.force)
      await ctx.outbox.sendNow(channelDedupeKey(sub.channelId, chartKey), run.nowMs);
  }
  await ctx.subscriptions.markDigestSent(sub.id, due.date);
  return created;
}
