/**
 * Limiter benchmark, processes sharing one SQLite file (part of `npm run bench -- limiter`):
 * three real processes take 20 grants each through one key's budget in one database file,
 * with the compressed limits of the cross-process test (60 a second, burst 5, getBrands 40
 * a second). A test-only trigger logs every send the limiters commit, with the time their
 * transaction used; the spread from the first grant to the last is divided by the shortest
 * the limits allow, so lock contention that starves the processes shows as a ratio well
 * above 1. Printed, never asserted (the test checks the limits are kept, not the pace).
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src/store/open-database.js';
import {
  CROSS_PROCESS_KEY,
  CROSS_PROCESS_LIMITS,
} from '../test/api/limiter/fixtures/cross-process-limits.js';
import { startLimiterProcess } from '../test/api/limiter/fixtures/start-limiter-process.js';
import { startCpuLoad } from './lib/cpu-load.js';
import { percentile } from './lib/order-stats.js';

const LANES = ['background', 'background', 'interactive'] as const;
const PER_PROCESS = 20;

/** The shortest spread the limits allow for `grants` getBrands grants, in ms. */
function minimumSpreadMs(grants: number): number {
  const { limits, windowMs, endpointPerMinute } = CROSS_PROCESS_LIMITS;
  const byBucket = ((grants - limits.burst) / limits.perMinute) * windowMs;
  const byWindow = (Math.ceil(grants / endpointPerMinute) - 1) * windowMs;
  return Math.max(byBucket, byWindow);
}

/** One round on a fresh file: the spread from the first grant to the last, in ms. */
async function oneRound(dir: string, round: number): Promise<{ spreadMs: number; granted: number }> {
  const path = join(dir, `processes-${round}.db`);
  const db = openDatabase(path);
  try {
    db.exec(`
      CREATE TABLE bench_grant_log (sent_at_ms INTEGER NOT NULL);
      CREATE TRIGGER bench_log_grants AFTER INSERT ON rate_sends
        WHEN NEW.key_hash = '${CROSS_PROCESS_KEY}' AND NEW.scope = 'getBrands'
        BEGIN INSERT INTO bench_grant_log VALUES (NEW.sent_at_ms); END;
    `);
    const children = LANES.map((lane) => startLimiterProcess(path, PER_PROCESS, lane));
    for (const c of children) await c.nextLine();
    for (const c of children) c.child.stdin.write('go\n');
    const counts = await Promise.all(children.map(async (c) => Number(await c.nextLine())));
    const sent = db.prepare('SELECT sent_at_ms FROM bench_grant_log').pluck().all() as number[];
    return { spreadMs: Math.max(...sent) - Math.min(...sent), granted: counts.reduce((a, b) => a + b, 0) };
  } finally {
    db.close();
  }
}

export async function sqliteProcesses(dir: string, o: { rounds: number; load: boolean }): Promise<string[]> {
  const grants = LANES.length * PER_PROCESS;
  const minimumMs = minimumSpreadMs(grants);
  const ratios: number[] = [];
  let missing = 0;
  // Bounded by the expected length of the part: process start-up dominates.
  const load = o.load ? startCpuLoad(o.rounds * 10_000 + 60_000) : null;
  const loadBefore = loadavg()[0]!;
  try {
    for (let round = 0; round < o.rounds; round++) {
      const r = await oneRound(dir, round);
      ratios.push(r.spreadMs / minimumMs);
      missing += grants - r.granted;
    }
  } finally {
    await load?.stop();
  }
  const loadAfter = loadavg()[0]!;
  const x = (v: number) => `×${v.toFixed(2)}`;
  return [
    `Processes sharing one SQLite file: ${LANES.length} processes × ${PER_PROCESS} grants on one key, ${CROSS_PROCESS_LIMITS.limits.perMinute}/s burst ${CROSS_PROCESS_LIMITS.limits.burst}, getBrands ${CROSS_PROCESS_LIMITS.endpointPerMinute}/s; ${o.rounds} rounds${load ? `, ${load.workers} busy-loop processes` : ''}; load average ${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)}`,
    `  first to last grant against the ${minimumMs.toFixed(0)} ms the limits allow: median ${x(percentile(ratios, 50))}, worst ${x(Math.max(...ratios))}; ${missing} grants missing`,
  ];
}
