/**
 * `npm run bench`: every benchmark in one run. Figures are printed, never asserted: a
 * timing test that flakes on a busy machine teaches nothing. `npm run bench -- limiter`
 * runs one.
 */
import { runAlertsBench } from './alerts.js';
import { runCommandsBench } from './commands.js';
import { runLimiterBench } from './limiter.js';
import { runStartupBench } from './startup.js';

const benches: Record<string, () => Promise<string[]>> = {
  limiter: runLimiterBench,
  commands: runCommandsBench,
  alerts: runAlertsBench,
  startup: runStartupBench,
};

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !(name in benches));
if (unknown.length > 0) {
  console.error(`Unknown benchmark ${unknown.join(', ')}; choose from ${Object.keys(benches).join(', ')}.`);
  process.exit(2);
}

for (const [name, run] of Object.entries(benches)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  console.log(`\n=== ${name} ===`);
  for (const line of await run()) console.log(line);
}
