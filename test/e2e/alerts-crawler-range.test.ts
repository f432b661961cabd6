/**
 * Crawler visits judged against the brand's usual range, end to end: the real crawler job
 * run once a day for four weeks against the API simulator (a seasonal site, weekends 45 %
 * below weekdays, with the simulator's daily noise), the outbox and the local Slack. Until three weeks are stored the fixed drop level
 * applies and `settings` says so; then a fall of 30 %, which the fixed −40 % would not
 * see, alerts once naming the usual range, and the recovery is one notice.
 */
import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../../src/utc-days.js';
import { messageText, northwind, useAlertsHarness } from './alerts-harness.js';

const h = useAlertsHarness();

/** One day later on both clocks, then the crawler job as the scheduler would run it. */
async function nextDay() {
  h.simClock.advance(DAY_MS);
  h.botClock.advance(DAY_MS);
  await h.runJobs('crawler');
}

const settingsText = async (ch: string) =>
  JSON.stringify(await h.command('settings "Northwind Outfitters" --show', ch));

describe('crawler visits against their usual range', () => {
  it('learns the range day by day, alerts a 30 % fall naming it, and notices the recovery once', async () => {
    const ch = h.channel('CCRANGE');
    // A seasonal site: weekends 45 % below weekdays, every day the bot will read.
    h.sim.control.setCrawlerRhythm(northwind.id, { weekendDip: 0.45 });
    await h.command('subscribe "Northwind Outfitters" alerts', ch);
    await h.runJobs('crawler');
    // The first answer holds 14 days: the fixed level applies, and the settings say why.
    expect(await settingsText(ch)).toContain('threshold −40 %: only 14 days of history so far');

    for (let day = 0; day < 7; day++) await nextDay();
    expect(await settingsText(ch)).toContain('range: 3 weeks of history');
    // Every weekend dip on the way is the usual rhythm: nothing.
    for (let day = 0; day < 7; day++) await nextDay();
    expect(h.posts(ch)).toEqual([]);
    expect(await settingsText(ch)).toContain('range: 4 weeks of history');

    // A fall of 30 % over the last 7 whole days: inside the fixed −40 %, outside the range.
    h.sim.control.setCrawlerTraffic(northwind.id, { factor: 0.7, days: 7 });
    await nextDay();
    expect(h.posts(ch)).toHaveLength(1);
    const drop = messageText(h.posts(ch)[0]!);
    expect(drop).toMatch(/AI crawler visits down \d+ %, below their usual range/);
    expect(drop).toMatch(/−\d+ % this week; usual range for these days −\d+ % to \+\d+ %/);
    expect(drop).toContain('Fell most');

    // Still fallen the next days: nothing more.
    await nextDay();
    await nextDay();
    expect(h.posts(ch)).toHaveLength(1);

    // Back to usual: one notice, then quiet.
    h.sim.control.setCrawlerTraffic(northwind.id, { factor: 1 });
    await nextDay();
    await nextDay();
    expect(h.posts(ch)).toHaveLength(2);
    expect(messageText(h.posts(ch)[1]!)).toContain('AI crawler visits back in their usual range');
    // One overview request a run, as before the range existed.
    const runs = h.sim.requests.filter(
      (r) => r.path === '/crawler/overview' && r.query['brand_id'] === northwind.id,
    );
    expect(runs).toHaveLength(20);
  }, 240_000);
});
