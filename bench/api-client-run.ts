/**
 * One measured process of the API client benchmark (bench/api-client.ts starts it): reads
 * `count` citation feeds (the alerting benchmark's 500-event bodies) from the server at
 * `port`, one after another as the citations job does, through one way of reading, and
 * prints the process's CPU for them as JSON. argv: way, port, count, and for `client` the
 * folder of the sources whose ApiClient to use (an older checkout's, to compare).
 */
import { pathToFileURL } from 'node:url';
import { Agent, request } from 'undici';
import type { ApiClient as ApiClientType } from '../src/api/client.js';
import type { unlimitedLimiter as UnlimitedLimiter } from '../src/api/limiter/unlimited-limiter.js';
import { dispatchText } from './lib/dispatch-text.js';

const [way, portArg, countArg, srcArg] = process.argv.slice(2);
const baseUrl = `http://127.0.0.1:${portArg}`;
const count = Number(countArg);
const src = srcArg ?? new URL('../src/', import.meta.url).pathname;

const brandId = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const feedPath = (i: number) => `/get-citations?brand_id=${brandId(i)}&view=feed&days_back=1&limit=500`;
const agentOptions = { keepAliveTimeout: 30_000, connections: 16 };

type Read = (i: number) => Promise<unknown>;

async function reader(): Promise<Read> {
  if (way === 'request-text') {
    const agent = new Agent(agentOptions);
    return async (i) => (await request(baseUrl + feedPath(i), { dispatcher: agent })).body.text();
  }
  if (way === 'request-parse') {
    const agent = new Agent(agentOptions);
    return async (i) =>
      JSON.parse(await (await request(baseUrl + feedPath(i), { dispatcher: agent })).body.text());
  }
  if (way === 'dispatch-text') {
    const agent = new Agent(agentOptions);
    return (i) => dispatchText(agent, baseUrl, feedPath(i));
  }
  if (way === 'dispatch-parse') {
    const agent = new Agent(agentOptions);
    return async (i) => JSON.parse(await dispatchText(agent, baseUrl, feedPath(i)));
  }
  if (way === 'client') {
    const { ApiClient } = (await import(pathToFileURL(`${src}/api/client.ts`).href)) as {
      ApiClient: typeof ApiClientType;
    };
    const { unlimitedLimiter } = (await import(
      pathToFileURL(`${src}/api/limiter/unlimited-limiter.ts`).href
    )) as { unlimitedLimiter: typeof UnlimitedLimiter };
    const api = new ApiClient({ baseUrl, apiKey: `sk_live_${'b'.repeat(32)}`, limiter: unlimitedLimiter() });
    return (i) => api.getCitationFeed({ brandId: brandId(i), daysBack: 1, limit: 500 });
  }
  throw new Error(`unknown way ${way}`);
}

const read = await reader();
const before = process.cpuUsage();
let events = 0;
for (let i = 0; i < count; i++) {
  const feed = (await read(i)) as { events?: unknown[] } | string;
  events += typeof feed === 'string' ? 1 : (feed.events?.length ?? 0);
}
const used = process.cpuUsage(before);
process.stdout.write(
  `${JSON.stringify({ cpuMs: (used.user + used.system) / 1000, userMs: used.user / 1000, events })}\n`,
);
process.exit(0);
