/**
 * The measured part of the alerting benchmark, run in its own process so its CPU time and
 * peak RSS are the run's alone, not the setup's. argv: dbPath brands known fresh.
 * Prints one JSON line with the figures.
 *
 * Per brand, as the citations/crawler/AI Pages jobs do: parse the three HTTP response
 * bodies (JSON text, as the client receives them) with the client's own JSON reader and
 * zod schemas, load state, detect, build the grouped alert message, then write the new
 * state and outbox rows in one transaction. Only socket I/O is left out.
 */
import { DEFAULT_ALERT_SETTINGS } from '../src/alerts/alert-settings.js';
import { detectAiPages } from '../src/alerts/detect-ai-pages.js';
import { detectCitations } from '../src/alerts/detect-citations.js';
import { detectCrawler, periodsFromOverview } from '../src/alerts/detect-crawler.js';
import { groupAlerts } from '../src/alerts/group-alerts.js';
import { parseJsonBody, parseResponse } from '../src/api/parse-response.js';
import { aiPagesRecordSchema } from '../src/api/schemas/ai-pages.js';
import { citationFeedResponseSchema } from '../src/api/schemas/citations.js';
import { crawlerOverviewSchema } from '../src/api/schemas/crawler.js';
import { buildAlertMessage } from '../src/messages/alert-message.js';
import { createChannelDetectorStateRepo } from '../src/store/channel-detector-state-repo.js';
import { createCitationStateRepo } from '../src/store/citation-state-repo.js';
import { openDatabase } from '../src/store/open-database.js';
import { createOutboxRepo } from '../src/store/outbox-repo.js';
import { transaction } from '../src/store/transaction.js';
import { aiPagesRecord, brandOf, citationFeed, crawlerOverview, START } from './alerts-fixtures.js';

export interface AlertsRunResult {
  cpuMs: number;
  cpuWithInputMs: number;
  wallMs: number;
  baselineRssMb: number;
  peakRssMb: number;
  alerts: number;
  messages: number;
  digestNew: number;
  rowsWritten: number;
}

const [dbPath, brandsArg, knownArg, freshArg] = process.argv.slice(2);
const brands = Number(brandsArg);
const known = Number(knownArg);
const fresh = Number(freshArg);
const settings = DEFAULT_ALERT_SETTINGS;
const cpuOf = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

const db = openDatabase(dbPath!);
const citations = createCitationStateRepo(db);
// Per subscription, as the jobs keep it: the level detectors follow each channel's thresholds.
const levels = createChannelDetectorStateRepo(db);
const outbox = createOutboxRepo(db, { owner: 'bench' });
const end = new Date(START).toISOString().slice(0, 10);
const nowMs = START + 6 * 3_600_000;

const result: AlertsRunResult = {
  cpuMs: 0,
  cpuWithInputMs: 0,
  wallMs: 0,
  baselineRssMb: process.memoryUsage().rss / 1_048_576,
  peakRssMb: 0,
  alerts: 0,
  messages: 0,
  digestNew: 0,
  rowsWritten: 0,
};
function processBrand(b: number, bodies: ReturnType<typeof inputsFor>): void {
  const brand = brandOf(b);
  const channelId = `C${b % 50}`;
  const input = {
    feed: parseResponse(
      citationFeedResponseSchema,
      parseJsonBody(bodies.feed, 'GET /get-citations'),
      'GET /get-citations',
    ),
    overview: parseResponse(
      crawlerOverviewSchema,
      parseJsonBody(bodies.overview, 'GET /crawler/overview'),
      'GET /crawler/overview',
    ),
    usage: parseResponse(aiPagesRecordSchema, parseJsonBody(bodies.usage, 'GET /ai-pages'), 'GET /ai-pages'),
  };
  const c = detectCitations(citations.load(brand.id), input.feed, settings, nowMs);
  const cr = detectCrawler(
    levels.getCrawler(channelId, brand.id),
    periodsFromOverview(input.overview, end),
    settings,
    brand,
    nowMs,
  );
  const ai = detectAiPages(levels.getAiPages(channelId, brand.id), input.usage, settings, brand, nowMs);
  const groups = groupAlerts([...c.alerts, ...cr.alerts, ...ai.alerts], ai.notes);
  transaction(db, () => {
    result.rowsWritten += citations.save(brand.id, c.next, nowMs, c.changed);
    levels.putCrawler(channelId, brand.id, cr.next, nowMs);
    levels.putAiPages(channelId, brand.id, ai.next, nowMs);
    for (const group of groups) {
      const dedupeKey = `${channelId}:${group.key}`;
      const payload = buildAlertMessage(group, { dedupeKey });
      if (
        outbox.enqueue({ dedupeKey, channelId, brandId: brand.id, kind: 'alert', payload, nowMs }).created
      ) {
        result.messages += 1;
      }
      result.alerts += group.alerts.length;
    }
  });
  result.digestNew += c.digestNew.length;
}

/** The three response bodies of brand `b`, as the service sends them (text). */
function inputsFor(b: number) {
  return {
    feed: JSON.stringify(citationFeed(b, known, fresh)),
    overview: JSON.stringify(crawlerOverview(b, end)),
    usage: JSON.stringify(aiPagesRecord(b, b % 7 === 0 ? 85 : 50)),
  };
}

const runStart = process.cpuUsage();
const wallStart = performance.now();
for (let b = 0; b < brands; b++) processBrand(b, inputsFor(b));
result.cpuWithInputMs = cpuOf(process.cpuUsage(runStart));
result.wallMs = performance.now() - wallStart;
result.peakRssMb = process.resourceUsage().maxRSS / 1024;
// Making the fake API payloads is not the run's work: time it alone and take it out.
// (Reading the CPU clock around every brand instead would cost 2,000 syscalls.)
const inputStart = process.cpuUsage();
let sink = 0;
for (let b = 0; b < brands; b++) sink += inputsFor(b).feed.length;
result.cpuMs = result.cpuWithInputMs - cpuOf(process.cpuUsage(inputStart));
if (sink === 0) throw new Error('fixture generation changed');
db.close();
process.stdout.write(`${JSON.stringify(result)}\n`);
