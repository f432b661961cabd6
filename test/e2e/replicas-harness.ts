/**
 * Replicas of the real bot as separate processes (test/e2e/replicas-process.ts: `serve`
 * and `run-job` as src/main.ts runs them, the plan's "minute" compressed) on one database,
 * in front of one API simulator and one local Slack, with a workload that makes every job
 * due: N brands subscribed through signed `/visibility subscribe` requests (citations
 * baselined), then the simulator's next day loses citations for every brand, crawler
 * visits fall and AI Pages usage passes its levels, and each subscription's digest time
 * has just passed. Shared by test/e2e/replicas.test.ts and bench/replicas.ts, hence no
 * vitest imports.
 *
 * The plan's limits are checked on what the simulator recorded (checkApiPacing): the key's
 * token bucket over every pair of requests, each endpoint's sliding window, the day.
 */

import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENDPOINTS } from '../../src/api/endpoint-table.js';
import { PLAN_LIMITS, type PlanLimits } from '../../src/api/plans.js';
import { openAppDeps } from '../../src/app-deps.js';
import { loadConfig, secretsOf } from '../../src/config.js';
import { localStackEnv } from '../../src/dev/demo/local-stack-config.js';
import { type LocalSlack, type StoredMessage, startLocalSlack } from '../../src/dev/local-slack/index.js';
import {
  type RecordedRequest,
  type RunningSimulator,
  startSimulator,
} from '../../src/dev/simulator/index.js';
import { OUTBOX_METADATA_EVENT } from '../../src/jobs/outbox-metadata.js';
import { createLogger } from '../../src/logger.js';
import type { PlanName } from '../../src/plan-names.js';
import { startService } from '../../src/slack/create-slack-app.js';
import { createSqliteStore, type SqliteStore } from '../../src/store/create-sqlite-store.js';
import { openDatabase } from '../../src/store/open-database.js';
import type { OutboxMessage } from '../../src/store/outbox-repo.js';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/create-postgres-store.js';
import { spawnCollecting } from '../helpers/spawn-collecting.js';

const ROOT = join(import.meta.dirname, '..', '..');
const ENTRY = join(import.meta.dirname, 'replicas-process.ts');
const DAY_MS = 86_400_000;

export interface ReplicaWorldOptions {
  brands: number;
  /** Brands are spread over this many channels (Slack paces each channel at ~1 post/s). */
  channels: number;
  /** Length of the plan's "minute" for the bot's limiter and the simulator. */
  windowMs: number;
  /** The plan the processes pace to and the simulator enforces; default scale. */
  plan?: PlanName;
  /**
   * The simulator sends no X-RateLimit-* headers (newer deployments, docs/api.md §8), so each
   * process knows the key's budget only from what it shares with the others; default true.
   */
  withoutRateHeaders?: boolean;
  /** postgres://… for every process; unset = one SQLite file in a temp directory. */
  databaseUrl?: string;
}

export interface WorldBrand {
  id: string;
  name: string;
  channelId: string;
}

export interface ReplicaProcess {
  name: string;
  child: ChildProcess;
  /** The lease and claim owner it writes (`serve:<host>:<pid>`, process-owner.ts). */
  owner: string;
  output(): string;
  exited: Promise<number | null>;
}

export interface ServeReplica extends ReplicaProcess {
  /** Its base URL once it listens. */
  url: string;
}

export interface ReplicaWorld {
  sim: RunningSimulator;
  slack: LocalSlack;
  /** The environment every process gets (DATABASE_URL or DATABASE_PATH among it). */
  env: Record<string, string>;
  windowMs: number;
  limits: PlanLimits;
  brands: WorldBrand[];
  channels: string[];
  /** The database as a reader beside the replicas (the test's own connection). */
  store: SqliteStore | PostgresStore;
  /** Every outbox row, oldest first. */
  outboxRows(): Promise<OutboxMessage[]>;
  processes: ReplicaProcess[];
  spawnServe(name: string): Promise<ServeReplica>;
  spawnRunJob(job: string): ReplicaProcess;
  /** Alerts and digests the bot posted (outbox metadata), every channel, oldest first. */
  posts(): StoredMessage[];
  close(): Promise<void>;
}

/** Polls `check` until it returns a value; throws with `what` after `timeoutMs`. */
export async function waitUntil<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs: number,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

function hhmm(ms: number): string {
  const d = new Date(ms);
  return `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
}

/** How long before the world starts its subscriptions count as made: before the digest's minute. */
const SUBSCRIBED_BEFORE_MS = 120_000;

/** Dates every subscription `ms` earlier, as if it had been made then. */
async function backdateSubscriptions(store: SqliteStore | PostgresStore, ms: number): Promise<void> {
  const sql = (p: string) => `UPDATE subscriptions SET created_at_ms = created_at_ms - ${p}`;
  if (store.backend === 'postgres') await store.pool.query(sql('$1'), [ms]);
  else store.db.prepare(sql('?')).run(ms);
}

export async function startReplicaWorld(o: ReplicaWorldOptions): Promise<ReplicaWorld> {
  const plan = o.plan ?? 'scale';
  const limits = PLAN_LIMITS[plan];
  let simOffset = 0;
  const simClock = {
    now: () => Date.now() + simOffset,
    sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)),
  };
  const sim = await startSimulator({
    brands: o.brands,
    clock: simClock,
    plan,
    limits: { ...limits, endpointPerMinute: null, windowMs: o.windowMs },
  });
  if (o.withoutRateHeaders !== false) sim.control.injectFault({ kind: 'no-rate-limit-headers' });
  const slack = await startLocalSlack();
  const dir = mkdtempSync(join(tmpdir(), 'visibility-replicas-'));
  const env = localStackEnv({ sim, slack, dir }, 'info', {
    VISIBILITY_API_PLAN: plan,
    ...(o.databaseUrl ? { DATABASE_URL: o.databaseUrl } : {}),
  });
  const channels = Array.from({ length: o.channels }, (_, i) => `CREPL${String(i).padStart(3, '0')}`);
  const addChannels = () => {
    for (const [i, id] of channels.entries()) slack.addChannel({ id, name: `replicas-${i}`, isMember: true });
  };
  addChannels();

  // Subscribe through the real path: signed slash commands to a service (no scheduler).
  const config = loadConfig('serve', env);
  // Silent: the subscriptions are checked by their replies; the replicas log for themselves.
  const deps = await openAppDeps(config, {
    limiter: { windowMs: o.windowMs },
    logger: createLogger({ level: 'silent', secrets: secretsOf(config) }),
  });
  const brands: WorldBrand[] = [];
  try {
    const service = await startService(deps, { port: 0, drainTimeoutMs: 2000 });
    try {
      const list = await deps.api.getBrands({}, { lane: 'background' });
      for (const [i, b] of list.brands.slice(0, o.brands).entries())
        brands.push({ id: b.id, name: b.name, channelId: channels[i % channels.length]! });
      const appUrl = `${service.url}/slack/events`;
      for (const b of brands) {
        const res = await slack.slashCommand(appUrl, { text: `subscribe ${b.id}`, channelId: b.channelId });
        if (res.status !== 200) throw new Error(`subscribe ${b.name}: HTTP ${res.status}`);
        const reply = await slack.waitFor(() => slack.responsesFor(res.responseUrlId)[0], 15_000);
        if (!JSON.stringify(reply.body).includes('now subscribed'))
          throw new Error(`subscribe ${b.name} answered ${JSON.stringify(reply.body)}`);
      }
    } finally {
      await service.stop();
    }
    // The digest's time: the minute that has begun, so it is due when the replicas start.
    // A digest scheduled before its subscription was made never is: the subscriptions are
    // dated two minutes back below (as if made then), instead of waiting for the next minute.
    const digestAt = Math.floor(Date.now() / 60_000) * 60_000;
    for (const b of brands) {
      const sub = await deps.store.subscriptions.get(b.channelId, b.id);
      if (!sub) throw new Error(`no subscription for ${b.name}`);
      await deps.store.subscriptions.setSettings(b.channelId, b.id, {
        ...sub.settings,
        digestTime: hhmm(digestAt),
        timezone: 'UTC',
      });
    }
    // The next day at the service: two citations lost for every brand; crawler visits down
    // 70 % over the last 8 days; AI Pages past 80 and 90 % (a brand without the feature
    // gets its one "not in your plan" note instead).
    simOffset += DAY_MS;
    sim.control.advanceSnapshot();
    for (const b of brands) {
      sim.control.setCrawlerTraffic(b.id, { factor: 0.3, days: 8 });
      sim.control.setAiPagesUsage(b.id, { percentageUsed: 92, dailyGrowth: 0 });
    }
    // The key's budget full again (its windows are real time, in every process): the
    // replicas start on fresh windows.
    await new Promise((r) => setTimeout(r, 2 * o.windowMs));
  } finally {
    await deps.close();
  }
  slack.reset();
  addChannels();

  const store = o.databaseUrl
    ? await openPostgresStore(o.databaseUrl)
    : createSqliteStore(openDatabase(env['DATABASE_PATH']!));
  await backdateSubscriptions(store, SUBSCRIBED_BEFORE_MS);
  const processes: ReplicaProcess[] = [];

  const start = (name: string, args: string[], role: string): ReplicaProcess => {
    const { child, output, exited } = spawnCollecting(process.execPath, ['--import', 'tsx', ENTRY, ...args], {
      cwd: ROOT,
      env: { PATH: process.env['PATH'] ?? '', ...env },
    });
    const p: ReplicaProcess = { name, child, owner: `${role}:${hostname()}:${child.pid}`, output, exited };
    processes.push(p);
    return p;
  };

  return {
    sim,
    slack,
    env,
    windowMs: o.windowMs,
    limits,
    brands,
    channels,
    store,
    async outboxRows() {
      const keys =
        store.backend === 'postgres'
          ? (await store.pool.query<{ k: string }>('SELECT dedupe_key AS k FROM outbox ORDER BY id')).rows
          : (store.db.prepare('SELECT dedupe_key AS k FROM outbox ORDER BY id').all() as { k: string }[]);
      const outbox = store.outbox();
      const rows = await Promise.all(keys.map((r) => outbox.getByDedupeKey(r.k)));
      return rows.filter((r): r is OutboxMessage => r !== null);
    },
    processes,
    async spawnServe(name) {
      const p = start(name, ['serve', String(o.windowMs)], 'serve');
      const url = await waitUntil(
        `${name} to listen`,
        () => {
          if (p.child.exitCode !== null) throw new Error(`${name} exited:\n${p.output()}`);
          return /listening on (http:\/\/[\d.:]+)/.exec(p.output())?.[1];
        },
        60_000,
      );
      return { ...p, url };
    },
    spawnRunJob(job) {
      const p = start(`run-job ${job}`, ['run-job', String(o.windowMs), job], 'run-job');
      return p;
    },
    posts: () =>
      channels
        .flatMap((c) => slack.messages(c))
        .filter((m) => m.via === 'chat.postMessage' && m.metadata?.event_type === OUTBOX_METADATA_EVENT),
    async close() {
      for (const p of processes)
        if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
      await Promise.all(processes.map((p) => p.exited));
      await store.close();
      await slack.close();
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The dedupe key a posted message carries in its metadata. */
export const keyOf = (m: StoredMessage): string => String(m.metadata?.event_payload['key'] ?? '');

/** What the simulator saw, judged against the plan's limits (compressed to `windowMs`). */
export interface PacingReport {
  /** Requests the API saw (429s included: a refused request was still sent). */
  calls: number;
  rateLimited: number;
  /** Most requests in any stretch beyond what the key's bucket allows (≤ 0 = within). */
  bucketExcess: number;
  /** Per endpoint window: the most requests seen in one window, and the limit. */
  endpoints: Record<string, { max: number; limit: number }>;
  /** The busiest window of the key's per-minute rate (any endpoint). */
  maxPerWindow: number;
}

function endpointWindow(r: RecordedRequest): { key: string; limit: number } {
  for (const e of Object.values(ENDPOINTS) as {
    method: string;
    path: string;
    perMinute: number;
    group?: string;
  }[]) {
    if (e.method === r.method && e.path === r.path)
      return { key: e.group ?? `${e.method} ${e.path}`, limit: e.perMinute };
  }
  return { key: `${r.method} ${r.path}`, limit: 60 };
}

export function checkApiPacing(
  requests: readonly RecordedRequest[],
  limits: PlanLimits,
  windowMs: number,
): PacingReport {
  const sent = [...requests].sort((a, b) => a.at - b.at);
  const t = sent.map((r) => r.at);
  // A bucket of `burst` refilled at perMinute per window: in any stretch from request i to
  // request j, at most burst + refill over the stretch can go through.
  let bucketExcess = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < t.length; i += 1)
    for (let j = i; j < t.length; j += 1) {
      const allowed = limits.burst + ((t[j]! - t[i]!) * limits.perMinute) / windowMs;
      bucketExcess = Math.max(bucketExcess, j - i + 1 - allowed);
    }
  const slidingMax = (times: number[]) => {
    let max = 0;
    let lo = 0;
    for (let hi = 0; hi < times.length; hi += 1) {
      while (times[hi]! - times[lo]! >= windowMs) lo += 1;
      max = Math.max(max, hi - lo + 1);
    }
    return max;
  };
  const byEndpoint = new Map<string, { times: number[]; limit: number }>();
  for (const r of sent) {
    const w = endpointWindow(r);
    const entry = byEndpoint.get(w.key) ?? { times: [], limit: w.limit };
    entry.times.push(r.at);
    byEndpoint.set(w.key, entry);
  }
  return {
    calls: sent.length,
    rateLimited: sent.filter((r) => r.status === 429).length,
    bucketExcess: t.length === 0 ? 0 : bucketExcess,
    endpoints: Object.fromEntries(
      [...byEndpoint].map(([k, v]) => [k, { max: slidingMax(v.times), limit: v.limit }]),
    ),
    maxPerWindow: slidingMax(t),
  };
}
