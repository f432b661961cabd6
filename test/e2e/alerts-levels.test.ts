/**
 * Level alerts end to end (docs/alert-semantics.md): AI Pages usage levels once per
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

  it('the alert and the overview its button opens show one figure over the same days', async () => {
    const ch = h.channel('CCRAWLSAME');
    await h.command('subscribe "Acme Analytics" alerts', ch);
    h.sim.control.setCrawlerTraffic(acme.id, { factor: 0.4 });
    await h.runJobs('crawler');
    const [alert] = h.posts(ch);
    const job = h.sim.requests.filter((r) => r.path === '/crawler/overview').at(-1)!;
    const end = job.query['end_date']!;
    const start = new Date(Date.parse(end) - 6 * 86_400_000).toISOString().slice(0, 10);

    type Json = Record<string, unknown>;
    const open = (alert!.blocks as Json[])
      .flatMap((b) => (b['type'] === 'actions' ? (b['elements'] as Json[]) : []))
      .find((e) => e['action_id'] === 'vis:open:crawler')!;
    const res = await h.slack.blockAction(h.appUrl, {
      actionId: 'vis:open:crawler',
      value: String(open['value']),
      channelId: ch,
      messageTs: alert!.ts,
    });
    const reply = await h.slack.waitFor(() => h.slack.responsesFor(res.responseUrlId)[0], 8000);
    // The overview over the alert's own 7 whole days, compared with the 7 before.
    expect(h.sim.requests.filter((r) => r.path === '/crawler/overview').at(-1)!.query).toMatchObject({
      brand_id: acme.id,
      range_preset: 'custom',
      start_date: start,
      end_date: end,
      compare_to: 'previous_period',
    });
    const shown = JSON.stringify((reply.body as { blocks: unknown }).blocks);
    const visits = /\*AI crawler visits\*\\n\*([\d,]+)\* \(−([\d.]+) %\)/.exec(shown);
    expect(visits, shown).not.toBeNull();
    // The alert says the same number of visits and the same fall.
    const text = messageText(alert!);
    expect(text).toContain(`${visits![1]} visits`);
    const fall = /AI crawler visits down (\d+) %/.exec(text)?.[1];
    expect(Number(fall)).toBe(Math.round(Number(visits![2])));
  });
});
