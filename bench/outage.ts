/**
 * Outage benchmark (`npm run bench -- outage [--quick]`): how long a person waits for the
 * bot's answer while its database cannot be used, against Slack's 3 s. The scenario is the
 * outage tests' own (test/e2e/outage-harness.ts: a real `serve` process, the API simulator
 * and the local Slack; the SQLite file locked by another connection, or the bot's Postgres
 * server stopped), with all their checks; here its answer times are printed, since a test
 * must not bound a wall-clock time. Each answer is timed from sending the request to its
 * post on the response_url, as the local Slack stamped it: four commands and a click that
 * are refused (nothing changed), then `help` and `status`, which still answer. Each round
 * is a fresh world (a scenario subscribes, so it runs once per world); the load average is
 * printed beside every round.
 */
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import {
  ANSWER_DEADLINE_MS,
  type OutageAnswerTime,
  type OutageSetting,
  postgresOutage,
  runOutageScenario,
  sqliteOutage,
} from '../test/e2e/outage-harness.js';
import { percentile } from './lib/order-stats.js';

export interface OutageBenchOptions {
  quick?: boolean;
  /** Worlds per backend (default 3; quick: 1). */
  rounds?: number;
}

const BACKENDS: { label: string; start: (channel: string) => Promise<OutageSetting> }[] = [
  { label: 'SQLite file locked', start: sqliteOutage },
  { label: 'Postgres stopped', start: postgresOutage },
];

async function oneRound(start: (channel: string) => Promise<OutageSetting>): Promise<OutageAnswerTime[]> {
  const setting = await start('COUTAGEBENCH');
  try {
    return await runOutageScenario(setting.world);
  } finally {
    await setting.close();
  }
}

const ms = (x: number) => `${Math.round(x).toLocaleString('en-US')} ms`;

export async function runOutageBench(options: OutageBenchOptions = {}): Promise<string[]> {
  const rounds = options.rounds ?? (options.quick ? 1 : 3);
  const lines = [
    `answers while the database cannot be used, from sending to the post on the response_url (Slack's deadline ${ms(ANSWER_DEADLINE_MS)}); ${rounds} round(s) per backend`,
  ];
  for (const b of BACKENDS) {
    const all: OutageAnswerTime[] = [];
    for (let r = 0; r < rounds; r++) {
      const load = loadavg()[0]!.toFixed(1);
      const times = await oneRound(b.start);
      all.push(...times);
      lines.push(
        `  ${b.label}, round ${r + 1} (load ${load}): ${times.map((t) => `${t.what} ${ms(t.ms)}`).join(', ')}`,
      );
    }
    const values = all.map((t) => t.ms);
    const slowest = all.reduce((a, t) => (t.ms > a.ms ? t : a));
    const within = values.filter((v) => v < ANSWER_DEADLINE_MS).length;
    lines.push(
      `  ${b.label}: median ${ms(percentile(values, 50))}, slowest ${ms(slowest.ms)} (${slowest.what}); ${within} of ${values.length} within ${ms(ANSWER_DEADLINE_MS)}${within === values.length ? '' : ' MISSED'}`,
    );
  }
  return lines;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await runOutageBench({ quick: process.argv.includes('--quick') })) console.log(line);
}
