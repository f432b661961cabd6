/**
 * Level alerts end to end (DESIGN.md "Alert semantics"): AI Pages usage levels once per
 * billing period, AI Pages unavailability noted once, crawler visits dropping and
 * recovering, each through the real jobs, the outbox and the local Slack.
 */
import { describe, expect, it } from 'vitest';
import { acme, globex, initech, messageText, northwind, useAlertsHarness } from './alerts-harness.js';

const h = useAlertsHarness();

describe('AI Pages usage', () => {
  it('alerts each level once per billing period and re-arms with a new period', async () => {
    const ch = h.channel('CAIPAGES');
    await h.command('subscribe "Acme Analytics" alerts', ch);
    const period1 = '2031-01-01T00:00:00Z';
    const texts = () => h.posts(ch).map(messageText);

    h.sim.control.setAiPagesUsage(acme.id, { percentageUsed: 85, resetDate: period1 });
    await h.runJobs('ai-pages');
    expect(texts()).toHaveLength(1);
    expect(texts()[0]).toContain('AI Pages usage passed 80 %');

    h.sim.control.setAiPagesUsage(acme.id, { percentageUsed: 92, resetDate: period1 });
    await h.runJobs('ai-pages');
    expect(texts()).toHaveLength(2);
    expect(texts()[1]).toContain('AI Pages usage passed 90 %');

    await h.runJobs('ai-pages');
    expect(texts()).toHaveLength(2);

    h.sim.control.setAiPagesUsage(acme.id, { percentageUsed: 50, resetDate: '2031-02-01T00:00:00Z' });
    await h.runJobs('ai-pages');
    expect(texts()).toHaveLength(2);

    h.sim.control.setAiPagesUsage(acme.id, { percentageUsed: 81, resetDate: '2031-02-01T00:00:00Z' });
    await h.runJobs('ai-pages');
    expect(texts()).toHaveLength(3);
    expect(texts()[2]).toContain('AI Pages usage passed 80 %');
    // One request per brand per run, on the background lane's endpoint.
    expect(
      h.sim.requests.filter((r) => r.path === '/ai-pages' && r.query['brand_id'] === acme.id),
    ).toHaveLength(5);
  });

  it('notes "not in your plan" and "not set up" once, never as daily alerts', async () => {
    const ch = h.channel('CAINOTES');
    await h.command('subscribe Initech alerts', ch);
    await h.command('subscribe "Globex Corporation" alerts', ch);
    await h.runJobs('ai-pages');
    await h.runJobs('ai-pages');
    const texts = h.posts(ch).map(messageText);
    expect(texts).toHaveLength(2);
    expect(texts.filter((t) => t.includes('AI Pages is not part of your plan'))).toHaveLength(1);
    expect(texts.filter((t) => t.includes('AI Pages is not set up for Globex Corporation'))).toHaveLength(1);
    expect(
      h.sim.requests.filter((r) => r.path === '/ai-pages' && r.query['brand_id'] === initech.id).length,
    ).toBe(2);
    expect(h.sim.requests.some((r) => r.query['brand_id'] === globex.id && r.path === '/ai-pages')).toBe(
      true,
    );
  });
});

describe('crawler visits', () => {
  it('alerts once when visits fall, once when they recover, naming the crawlers', async () => {
    const ch = h.channel('CCRAWLER');
    await h.command('subscribe "Northwind Outfitters" alerts', ch);
    await h.runJobs('crawler');
    expect(h.posts(ch)).toEqual([]);
    const overview = h.sim.requests.filter((r) => r.path === '/crawler/overview').at(-1)!;
    expect(overview.query).toMatchObject({ brand_id: northwind.id, range_preset: 'custom' });
    const days =
      (Date.parse(overview.query['end_date']!) - Date.parse(overview.query['start_date']!)) / 86_400_000;
    expect(days).toBe(13);

    h.sim.control.setCrawlerTraffic(northwind.id, { factor: 0.3, days: 8 });
    await h.runJobs('crawler');
    await h.runJobs('crawler');
    expect(h.posts(ch)).toHaveLength(1);
    const drop = messageText(h.posts(ch)[0]!);
    expect(drop).toMatch(/AI crawler visits down \d+ %/);
    expect(drop).toContain('Fell most');

    h.sim.control.setCrawlerTraffic(northwind.id, { factor: 1, days: 30 });
    await h.runJobs('crawler');
    await h.runJobs('crawler');
    expect(h.posts(ch)).toHaveLength(2);
    expect(messageText(h.posts(ch)[1]!)).toContain('AI crawler visits recovered');
  });
});
