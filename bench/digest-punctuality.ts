/**
 * Digest punctuality (`npx tsx bench/digest-punctuality.ts [--quick]`, or from
 * bench/index.ts): N brands of the simulator subscribed in 20 channels whose digest times
 * are set the way teams set them (09:00 local in a few time zones, one team at 08:30),
 * through the real scheduler (digest ticks every 5 minutes, digests prepared ahead) and
 * outbox relay (one post per second per channel) against the local Slack, with the key at
 * Scale limits (bucket of 100, 1 call/s, 60/min per endpoint).
 *
 * Time is compressed: every part (bot, limiter, simulator, local Slack) runs on one clock
 * going `rate` times faster than the wall clock, and the bench jumps it over stretches
 * where nothing is due. Before the measured day, the polls run once just after midnight
 * UTC (as the scheduler runs them), so the digests find fresh poll data as they would;
 * the alerts those polls raise are dropped, as they are not what is measured.
 *
 * Run twice: digests prepared ahead (the scheduler's default lead) and, for comparison,
 * prepared at their time (lead 0, as before).
 *
 * For each channel: lateness = its last digest's post time − its digest time, compared
 * with the floor of N digests at Slack's pace (the first at the digest time, then one per
 * second). Also: digests posted before their time (must be 0) and the first post's delay.
 * Numbers are printed, never asserted.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { resolveAlertSettings } from '../src/alerts/alert-settings.js';
import { zonedTimeToUtcMs } from '../src/alerts/zoned-time.js';
import { createAppDeps } from '../src/app-deps.js';
import { localStackConfig } from '../src/dev/demo/local-stack-config.js';
import { startLocalSlack } from '../src/dev/local-slack/index.js';
import { startSimulator } from '../src/dev/simulator/index.js';
import { runJobs } from '../src/jobs/run-jobs.js';
import { createScheduler, DIGEST_LEAD_MS } from '../src/jobs/scheduler.js';
import type { SqliteStore } from '../src/store/create-sqlite-store.js';
import { percentile } from './lib/order-stats.js';
import { scaledClock } from './lib/scaled-clock.js';

const CHANNELS = 20;
const PACE_MS = 1000;
const TICK_MS = 5 * 60_000;
const DAY = '2026-11-24';
/** How the 20 channels set their digest (a November day: no daylight saving in play). */
const TEAMS: readonly { tz: string; time: string; channels: number }[] = [
  { tz: 'America/New_York', time: '09:00', channels: 7 },
  { tz: 'America/New_York', time: '08:30', channels: 1 },
  { tz: 'Europe/London', time: '09:00', channels: 5 },
  { tz: 'Europe/Berlin', time: '09:00', channels: 3 },
  { tz: 'America/Los_Angeles', time: '09:00', channels: 2 },
  { tz: 'Asia/Kolkata', time: '09:00', channels: 2 },
];

export interface DigestBenchOptions {
  quick?: boolean;
  /** Subscribed brands (default 1,000; quick: 200). */
  brands?: number;
  /** Compression while the digests run (default 10: Slack's 1/s becomes 10/s). */
  rate?: number;
}

interface ChannelResult {
  channel: string;
  team: string;
  digests: number;
  dueAtMs: number;
  firstMs: number;
  lastMs: number;
  early: number;
  minGapMs: number;
}

async function measure(
  brands: number,
  rate: number,
  leadMs: number,
): Promise<{ channels: ChannelResult[]; wallMs: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'digest-bench-'));
  // Just after midnight UTC, when the scheduler runs the daily polls.
  const clock = scaledClock(Date.parse(`${DAY}T00:05:00Z`), 300);
  const sim = await startSimulator({
    brands,
    clock,
    limits: { perMinute: 60, burst: 100, perDay: null, endpointPerMinute: null, windowMs: 60_000 },
  });
  const slack = await startLocalSlack({ clock });
  const config = localStackConfig({ sim, slack, dir }, 'silent');
  const deps = createAppDeps(config, { clock });
  const started = performance.now();
  try {
    const list = await deps.api.getBrands({}, { lane: 'background' });
    const subs = deps.store.subscriptions;
    const channelOf: { id: string; team: (typeof TEAMS)[number] }[] = [];
    for (const team of TEAMS)
      for (let k = 0; k < team.channels; k += 1) {
        const id = `C${String(channelOf.length).padStart(3, '0')}DIGEST`;
        slack.addChannel({ id, name: `digest-${channelOf.length}`, isMember: true });
        channelOf.push({ id, team });
      }
    for (const [i, b] of list.brands.slice(0, brands).entries()) {
      const { id, team } = channelOf[i % CHANNELS]!;
      await subs.upsert({
        channelId: id,
        brandId: b.id,
        brandName: b.name,
        alerts: true,
        digest: true,
        settings: resolveAlertSettings({ digestTime: team.time, timezone: team.tz }),
        createdBy: 'U1',
        // Subscribed now: yesterday's digests were never due.
        createdAtMs: clock.now(),
      });
    }

    // The night's polls, fast-forwarded (the bench measures the digests, not these).
    for (const job of ['citations', 'crawler', 'ai-pages'] as const)
      await runJobs(deps, job, { owner: 'bench-polls', deliver: false });
    (deps.store as SqliteStore).db.prepare('DELETE FROM outbox').run();
    clock.setRate(rate);

    const dueAt = channelOf.map((c) => zonedTimeToUtcMs(DAY, c.team.time, c.team.tz));
    // The scheduler's digest ticks: every 5 minutes from a lead and a tick before the first
    // digest of each time until just after it.
    const ticks = [
      ...new Set(
        dueAt.flatMap((at) => {
          const from = Math.floor((at - DIGEST_LEAD_MS - TICK_MS) / TICK_MS) * TICK_MS;
          return Array.from(
            { length: Math.ceil((at + TICK_MS - from) / TICK_MS) + 1 },
            (_, i) => from + i * TICK_MS,
          );
        }),
      ),
    ]
      .filter((t) => t > clock.now())
      .sort((a, b) => a - b);

    const scheduler = createScheduler(deps, {
      // Cron never fires on its own here: the bench ticks on the compressed clock.
      pollCron: '0 0 1 1 *',
      digestCron: '0 0 1 1 *',
      catchUpOnStart: false,
      owner: 'bench-serve',
      relay: { paceMs: PACE_MS },
      digestLeadMs: leadMs,
    });
    scheduler.start();
    const outbox = deps.store.outbox();
    // Jumps stop this far before a row's time so the relay's next wake-up is its own.
    const settle = 10_000;
    const realPause = () => new Promise((r) => setTimeout(r, 5));
    let next = 0;
    for (;;) {
      const now = clock.now();
      const counts = await outbox.counts();
      if (next >= ticks.length && counts.pending + counts.sending === 0) break;
      if (next < ticks.length && now >= ticks[next]!) {
        await scheduler.digestTick();
        next += 1;
        continue;
      }
      const pendingAt = await outbox.nextPendingAt();
      if (counts.sending > 0 || (pendingAt !== null && pendingAt <= now + settle)) {
        await realPause();
        continue;
      }
      const target = Math.min(
        ticks[next] ?? Number.POSITIVE_INFINITY,
        (pendingAt ?? Number.POSITIVE_INFINITY) - settle,
      );
      if (Number.isFinite(target)) clock.jumpTo(target);
      await realPause();
    }
    await scheduler.stop();

    const posts = slack.callsTo('chat.postMessage');
    const channels = channelOf.map((c, i): ChannelResult => {
      const times = posts
        .filter((p) => p.args['channel'] === c.id)
        .map((p) => p.at)
        .sort((a, b) => a - b);
      const gaps = times.slice(1).map((t, k) => t - times[k]!);
      return {
        channel: c.id,
        team: `${c.team.time} ${c.team.tz}`,
        digests: times.length,
        dueAtMs: dueAt[i]!,
        firstMs: times[0] ?? Number.NaN,
        lastMs: times.at(-1) ?? Number.NaN,
        early: times.filter((t) => t < dueAt[i]!).length,
        minGapMs: gaps.length ? Math.min(...gaps) : Number.NaN,
      };
    });
    return { channels, wallMs: performance.now() - started };
  } finally {
    await deps.close();
    await slack.close();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export async function runDigestBench(options: DigestBenchOptions = {}): Promise<string[]> {
  const brands = options.brands ?? (options.quick ? 200 : 1000);
  const rate = options.rate ?? 10;
  const stat = (v: number[]) =>
    `p50 ${s(percentile(v, 50))}, p99 ${s(percentile(v, 99))}, max ${s(Math.max(...v))}`;
  const lines = [
    `digest punctuality: ${brands} brands in ${CHANNELS} channels (${TEAMS.map((t) => `${t.channels}× ${t.time} ${t.tz}`).join(', ')}), Scale limits, Slack 1 post/s per channel; time compressed ×${rate}`,
  ];
  for (const leadMs of [DIGEST_LEAD_MS, 0]) {
    const load = loadavg()[0]!;
    const { channels, wallMs } = await measure(brands, rate, leadMs);
    const lateness = channels.map((c) => c.lastMs - c.dueAtMs);
    const floor = channels.map((c) => (c.digests - 1) * PACE_MS);
    const overFloor = channels.map((_, i) => lateness[i]! - floor[i]!);
    const firstDelay = channels.map((c) => c.firstMs - c.dueAtMs);
    const posted = channels.reduce((n, c) => n + c.digests, 0);
    lines.push(
      leadMs > 0
        ? `  prepared ${leadMs / 60_000} min ahead (default); load average ${load.toFixed(1)}; ${s(wallMs)} wall`
        : `  prepared at the digest time (lead 0, as before); load average ${load.toFixed(1)}; ${s(wallMs)} wall`,
      `    digests posted ${posted} of ${brands}; before their time ${channels.reduce((n, c) => n + c.early, 0)}; smallest gap between two posts in a channel ${s(Math.min(...channels.map((c) => c.minGapMs)))}`,
      `    per channel, digest time → last digest posted: ${stat(lateness)}`,
      `    floor (N digests at 1/s, the first at the digest time): ${stat(floor)}`,
      `    above the floor: ${stat(overFloor)}`,
      `    digest time → first digest posted: ${stat(firstDelay)}`,
    );
  }
  return lines;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await runDigestBench({ quick: process.argv.includes('--quick') })) console.log(line);
}
