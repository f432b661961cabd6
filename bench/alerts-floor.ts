/**
 * The floor under the alerting benchmark's run (bench/alerts.ts): the same 3,000 GETs of
 * the same bodies from the same server (a citation feed, a crawler overview and an AI Pages
 * record per brand), read through undici's dispatch handler API (the cheapest way undici
 * reads a body, and the API client's) and parsed with `JSON.parse`, and nothing else: no
 * validation, no state, no detection, no messages, no database. The run's CPU above this
 * figure is the bot's own work.
 * Run as its own process, started the way the run is. argv: baseUrl brands. Prints one
 * JSON line: { cpuMs, peakRssMb }.
 */
import { Agent } from 'undici';
import { brandOf } from './alerts-fixtures.js';
import { dispatchText } from './lib/dispatch-text.js';

const [baseUrl, brandsArg] = process.argv.slice(2);
const brands = Number(brandsArg);
const dispatcher = new Agent({ connections: 1 });
const paths = (id: string) => [
  `/get-citations?brand_id=${id}&view=feed&days_back=1&limit=500`,
  `/crawler/overview?brand_id=${id}&range_preset=custom&compare_to=previous_period`,
  `/ai-pages?brand_id=${id}`,
];

const start = process.cpuUsage();
let parsed = 0;
for (const path of [0, 1, 2]) {
  for (let b = 0; b < brands; b++) {
    const body = JSON.parse(await dispatchText(dispatcher, baseUrl!, paths(brandOf(b).id)[path]!)) as object;
    parsed += Object.keys(body).length > 0 ? 1 : 0;
  }
}
const cpu = process.cpuUsage(start);
await dispatcher.close();
if (parsed !== brands * 3) throw new Error(`parsed ${parsed} bodies`);
process.stdout.write(
  `${JSON.stringify({ cpuMs: (cpu.user + cpu.system) / 1000, peakRssMb: process.resourceUsage().maxRSS / 1024 })}\n`,
);
