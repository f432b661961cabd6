/**
 * The why-lines' data fetched with the real client from the real simulator: lines when the
 * data is there, none when the run's bound is spent or the service fails the call.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_SETTINGS } from '../../src/alerts/alert-settings.js';
import { baselineCitations } from '../../src/alerts/detect-citations.js';
import { ownPageWhy, thirdPartyWhy } from '../../src/alerts/why-lines.js';
import { ApiClient } from '../../src/api/client.js';
import type { Clock } from '../../src/clock.js';
import { type RunningSimulator, SEED_BRANDS, startSimulator } from '../../src/dev/simulator/index.js';
import type { Subscription } from '../../src/store/subscriptions-repo.js';
import { fetchLostPageWhy } from '../../src/use-cases/citation-run-extras.js';
import {
  CallBudget,
  fetchDomainSources,
  fetchPageVisits,
  fetchSiteHost,
  hostOf,
  isOwnPage,
  runBudget,
  type WhyFetch,
} from '../../src/use-cases/fetch-why-data.js';
import { ev, feed } from '../alerts/fixtures.js';
import { recordingLimiter } from '../helpers/recording-limiter.js';

const ACME = SEED_BRANDS.acme.id;
const noSleepClock: Clock = { now: () => Date.now(), sleep: async () => {} };
let sim: RunningSimulator;
let client: ApiClient;

beforeAll(async () => {
  sim = await startSimulator({ limits: { perMinute: 10_000, burst: 10_000, endpointPerMinute: 10_000 } });
  client = new ApiClient({
    baseUrl: sim.url,
    apiKey: sim.apiKey,
    limiter: recordingLimiter(),
    clock: noSleepClock,
  });
});
afterAll(async () => {
  await client.close();
  await sim.close();
});
beforeEach(() => {
  sim.control.clearFaults();
});

const fetcher = (size = 10): WhyFetch => ({
  api: client,
  call: { lane: 'background' },
  budget: new CallBudget(size),
});

describe('why-line data from the service', () => {
  it('an own page: the crawler visits to it, as a line naming the last visit and its status', async () => {
    const w = fetcher();
    const site = await fetchSiteHost(w, ACME);
    // The brand's website without `www.`: its pages and subdomains are its own.
    expect(site).toBe('acmeanalytics.com');
    const pages = (await client.getCrawlerPages({
      brandId: ACME,
      lens: 'pages',
      rangePreset: '7d',
      limit: 5,
    })) as {
      items: { url: string; visits: number }[];
    };
    const visited = pages.items.find((p) => p.visits > 0)!;
    expect(isOwnPage(visited.url, site!)).toBe(true);
    const data = await fetchPageVisits(w, ACME, visited.url);
    expect(data!.visits.length).toBeGreaterThan(0);
    const [line] = ownPageWhy(data);
    expect(line).toMatch(
      /^AI crawlers (still reach|cannot read) this page: .*last visit.* \(status \d{3}\)\.$/,
    );
  });

  it('a third-party page: the competitors on it or on its site, from the sources view', async () => {
    const w = fetcher();
    const site = (await fetchSiteHost(w, ACME))!;
    const other = sim.control.citationUrls(ACME).filter((u) => !isOwnPage(u, site));
    let named = 0;
    for (const url of other.slice(0, 5)) {
      const sources = await fetchDomainSources(w, ACME, hostOf(url)!);
      expect(sources).not.toBeNull();
      const lines = thirdPartyWhy(url, sources);
      const expected = sources!.pages.find((p) => p.url === url)?.competitors.length
        ? sources!.pages.find((p) => p.url === url)!.competitors
        : sources!.competitorsOnDomain;
      if (expected.length === 0) {
        expect(lines).toEqual([]);
        continue;
      }
      named += 1;
      for (const c of expected) expect(lines[0]).toContain(c);
    }
    expect(named).toBeGreaterThan(0);
  });

  it('no line and no call once the run bound is spent; one bound per run and name', async () => {
    const before = sim.requests.length;
    const w = fetcher(0);
    expect(await fetchDomainSources(w, ACME, 'www.g2.com')).toBeNull();
    expect(await fetchPageVisits(w, ACME, 'https://x.example/')).toBeNull();
    expect(sim.requests.length).toBe(before);
    const run = {};
    expect(runBudget(run, 'citations', 2)).toBe(runBudget(run, 'citations', 2));
    expect(runBudget(run, 'crawler', 2)).not.toBe(runBudget(run, 'citations', 2));
    expect(runBudget({}, 'citations', 2)).not.toBe(runBudget(run, 'citations', 2));
  });

  it('no line when the service fails the call: the alert goes out saying nothing about why', async () => {
    sim.control.injectFault({ kind: 'status', status: 404, count: 5, path: '/get-citations' });
    const w = fetcher();
    const sources = await fetchDomainSources(w, ACME, 'nowhere.example');
    expect(sources).toBeNull();
    expect(thirdPartyWhy('https://nowhere.example/x', sources)).toEqual([]);
  });

  it('lost pages: lines while the bound allows a call; once it is spent, not even the state is read', async () => {
    const site = (await fetchSiteHost(fetcher(), ACME))!;
    const url = sim.control.citationUrls(ACME).find((u) => !isOwnPage(u, site))!;
    const known = baselineCitations(feed([ev('new', url, '2025-02-25T06:00:00Z')]));
    let loads = 0;
    const state = {
      load: async () => {
        loads += 1;
        return known;
      },
    };
    const lost = feed([ev('lost', url, '2025-03-01T06:00:00Z')]);
    const subs = [{ settings: DEFAULT_ALERT_SETTINGS } as Subscription];
    const now = Date.parse('2025-03-01T07:00:00Z');
    const why = await fetchLostPageWhy(fetcher(), ACME, state, lost, subs, now);
    expect(loads).toBe(1);
    expect([...why.keys()]).toEqual([url]);
    const before = sim.requests.length;
    expect((await fetchLostPageWhy(fetcher(0), ACME, state, lost, subs, now)).size).toBe(0);
    expect(loads).toBe(1);
    expect(sim.requests.length).toBe(before);
  });
});
