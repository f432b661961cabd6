/**
 * `npm run bench`: every benchmark in one run. Figures are printed, never asserted: a
 * timing test that flakes on a busy machine teaches nothing. `npm run bench -- limiter`
 * runs one; `--quick` runs fewer rounds and sizes (a few minutes on 2 cores; the full run
 * takes about 25 minutes).
 */
import { runAlertQualityBench } from './alert-quality.js';
import { runAlertsBench } from './alerts.js';
import { runApiClientBench } from './api-client.js';
import { runChartsBench } from './charts.js';
import { runCommandsBench } from './commands.js';
import { runDigestBench } from './digest-punctuality.js';
import { runLimiterBench } from './limiter.js';
import { runOutageBench } from './outage.js';
import { runReplicasBench } from './replicas.js';
import { runRunJobBench } from './run-job-all.js';
import { runServeMemoryBench } from './serve-memory.js';
import { runStartupBench } from './startup.js';

const benches: Record<string, (options: { quick: boolean }) => Promise<string[]>> = {
  limiter: runLimiterBench,
  commands: runCommandsBench,
  alerts: runAlertsBench,
  'api-client': runApiClientBench,
  'alert-quality': runAlertQualityBench,
  'run-job': runRunJobBench,
  digest: runDigestBench,
  startup: runStartupBench,
  memory: runServeMemoryBench,
  charts: runChartsBench,
  replicas: runReplicasBench,
  outage: runOutageBench,
};

const quick = process.argv.includes('--quick');
const wanted = process.argv.slice(2).filter((arg) => arg !== '--quick');
const unknown = wanted.filter((name) => !(name in benches));
if (unknown.length > 0) {
  console.error(`Unknown benchmark ${unknown.join(', ')}; choose from ${Object.keys(benches).join(', ')}.`);
  process.exit(2);
}

for (const [name, run] of Object.entries(benches)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  console.log(`\n=== ${name} ===`);
  for (const line of await run({ quick })) console.log(line);
}
