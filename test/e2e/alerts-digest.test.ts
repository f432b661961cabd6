/**
 * The daily digest end to end: content for two brands in two channels (run-job digest:
 * whatever the hour), and the schedule as the scheduler keeps it: due at the
 * subscription's time in its time zone, once a day, and after the bot was down for days a
 * single late digest instead of one per missed day.
 */
import { describe, expect, it } from 'vitest';
import { zonedParts } from '../../src/alerts/zoned-time.js';
import { dayText } from '../../src/figures/day-text.js';
import { createScheduler } from '../../src/jobs/scheduler.js';
import { acme, DAY_MS, HOUR_MS, messageText, northwind, useAlertsHarness } from './alerts-harness.js';

const h = useAlertsHarness();

async function topIdea(brandId: string): Promise<string> {
  const res = await fetch(`${h.sim.url}/get-content-ideas?brand_id=${brandId}&status=active&limit=200`, {
    headers: { authorization: `Bearer ${h.sim.apiKey}` },
  });
  const body = (await res.json()) as { ideas: { query: string; opportunity_score: number }[] };
  return [...body.ideas].sort((a, b) => b.opportunity_score - a.opportunity_score)[0]!.query;
}

describe('digest content', () => {
  it('posts one digest per brand per channel with citations, top ideas, crawler and AI Pages', async () => {
    const marketing = h.channel('CDIGMKT');
    const seo = h.channel('CDIGSEO');
    await h.command('subscribe "Acme Analytics" digest', marketing);
    await h.command('subscribe "Northwind Outfitters" digest', marketing);
    await h.command('subscribe "Northwind Outfitters" digest', seo);

    const run = await h.runJobs('digest');
    expect(run.jobs[0]).toMatchObject({ job: 'digest', status: 'ok', brands: 2, messages: 3 });
    // Five requests per brand, however many channels: ideas, feed, crawler, AI Pages, and
    // the citation history of the last 7 days for the digest chart (on by default).
    const perBrand = (id: string) =>
      h.sim.requests.filter((r) => r.query['brand_id'] === id && r.method === 'GET');
    expect(
      perBrand(acme.id)
        .map((r) => `${r.path}${r.query['view'] ? `?view=${r.query['view']}` : ''}`)
        .sort(),
    ).toEqual([
      '/ai-pages',
      '/crawler/overview',
      '/get-citations?view=feed',
      '/get-citations?view=history',
      '/get-content-ideas',
    ]);

    const inMarketing = h.posts(marketing).map(messageText);
    expect(inMarketing).toHaveLength(2);
    const acmeDigest = inMarketing.find((t) => t.includes('Acme Analytics: daily digest'))!;
    for (const part of ['*Cited pages*', '*AI Pages usage*', '*AI crawler visits*', await topIdea(acme.id)]) {
      expect(acmeDigest).toContain(part);
    }
    expect(inMarketing.some((t) => t.includes('Northwind Outfitters: daily digest'))).toBe(true);
    const inSeo = h.posts(seo).map(messageText);
    expect(inSeo).toHaveLength(1);
    expect(inSeo[0]).toContain(await topIdea(northwind.id));
    expect(inSeo[0]).not.toContain('(late)');

    await h.runJobs('digest');
    expect(h.posts(marketing)).toHaveLength(2);
    expect(h.posts(seo)).toHaveLength(1);
  });
});

describe('digest citations', () => {
  const citationsPart = (text: string) =>
    text.slice(text.indexOf('*Cited pages*'), text.indexOf('*AI crawler visits*'));
  // Other brands of this file's world may have digests due too: Acme's reads only.
  const feedReads = () =>
    h.sim.requests.filter(
      (r) => r.path === '/get-citations' && r.query['view'] === 'feed' && r.query['brand_id'] === acme.id,
    );

  it("reads the citations poll's figures, not the feed again, and shows what the feed shows", async () => {
    // Asked of the service: the figures a digest makes of the feed itself.
    const asked = h.channel('CDIGASK');
    await h.command('subscribe "Acme Analytics" digest', asked);
    await h.runJobs('digest');
    const fromFeed = citationsPart(messageText(h.posts(asked)[0]!));
    expect(fromFeed).toContain('*Cited pages*');

    // The poll stores the digest's section of the same feed (a few pages, not the events).
    const polled = h.channel('CDIGPOLL');
    await h.command('subscribe "Acme Analytics"', polled);
    await h.runJobs('citations');
    const stored = await h.deps.store.pollObservations.get<Record<string, unknown>>(acme.id, 'citations');
    expect(stored?.data).toMatchObject({ citations: { status: 'ok' } });
    expect(stored?.data).not.toHaveProperty('feed');
    expect(JSON.stringify(stored?.data).length).toBeLessThan(4_000);

    const before = feedReads().length;
    await h.runJobs('digest');
    expect(feedReads().length).toBe(before);
    expect(citationsPart(messageText(h.posts(polled)[0]!))).toBe(fromFeed);
  });

  it('still reads an observation stored by the release that kept the feed', async () => {
    const ch = h.channel('CDIGOLD');
    await h.command('subscribe "Acme Analytics" digest', ch);
    const feed = await h.deps.api.getCitationFeed({ brandId: acme.id, daysBack: 1 });
    const observed = { currentSnapshotDate: feed.current_snapshot_date, feed, runTimeOfDayMs: null };
    await h.deps.store.pollObservations.put(acme.id, 'citations', observed, h.botClock.now());
    const before = feedReads().length;
    await h.runJobs('digest');
    expect(feedReads().length).toBe(before);
    expect(citationsPart(messageText(h.posts(ch)[0]!))).toContain('*Cited pages*');
  });
});

describe('digest schedule', () => {
  it('is due at its local time, once a day, and sends one late digest after days of downtime', async () => {
    const ch = h.channel('CDIGTIME');
    await h.command('subscribe "Globex Corporation" digest', ch);
    // Digest time one hour from now, in Tokyo time.
    const tz = 'Asia/Tokyo';
    const firstDueAt = h.botClock.now() + HOUR_MS;
    const local = zonedParts(firstDueAt, tz);
    const hhmm = `${String(Math.floor(local.minutes / 60)).padStart(2, '0')}:${String(local.minutes % 60).padStart(2, '0')}`;
    await h.command(`settings "Globex Corporation" digest=${hhmm} tz=${tz}`, ch);

    const scheduler = createScheduler(h.deps, { relay: { paceMs: 20 } });
    await scheduler.digestTick();
    expect(h.posts(ch)).toEqual([]);

    h.botClock.advance(HOUR_MS + 60_000);
    await scheduler.digestTick();
    await scheduler.digestTick();
    expect(h.posts(ch)).toHaveLength(1);
    expect(messageText(h.posts(ch)[0]!)).not.toContain('(late)');

    // Down for three days: one digest, for the latest day, marked late.
    h.botClock.advance(3 * DAY_MS + 2 * HOUR_MS);
    await scheduler.digestTick();
    await scheduler.digestTick();
    expect(h.posts(ch)).toHaveLength(2);
    const late = messageText(h.posts(ch)[1]!);
    expect(late).toContain('(late)');
    // The latest day whose digest time has passed, in Tokyo: not necessarily today's date
    // there, when Tokyo's midnight fell in the two hours since that digest time.
    expect(late).toContain(dayText(zonedParts(firstDueAt + 3 * DAY_MS, tz).date));
    expect((await scheduler.snapshot()).jobs.digest.nextRunAtMs).toBeGreaterThan(h.botClock.now());
    await scheduler.stop();
  });
});
