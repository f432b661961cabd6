/**
 * "Post chart to channel" on `citations … history` and the `crawler …` overview, through
 * the real service, the simulator and the local Slack: the button sits next to "Share in
 * channel"; a click is answered at once and the chart arrives in the channel afterwards,
 * drawn from the same data the reply showed, with alt text; a channel the bot is not in
 * gets an ephemeral explanation and no file.
 */
import { describe, expect, it } from 'vitest';
import { checkPng } from '../../src/dev/local-slack/check-png.js';
import { SEED_BRANDS } from '../../src/dev/simulator/index.js';
import { buttons, type ReplyBody, useReadHarness, visibleText } from './read-commands-harness.js';

const acme = SEED_BRANDS.acme;
const h = useReadHarness();

function chartButton(reply: ReplyBody, actionId: string) {
  const b = buttons(reply).find((x) => x.action_id === actionId);
  if (!b) throw new Error(`no ${actionId} button`);
  return b;
}

async function clickChart(reply: ReplyBody, actionId: string) {
  const b = chartButton(reply, actionId);
  return h.slack.blockAction(h.appUrl, { actionId, ...(b.value !== undefined ? { value: b.value } : {}) });
}

describe('the Chart button', () => {
  it('on citations history: answered at once, then the chart of the same days in the channel', async () => {
    const { reply } = await h.command('citations "Acme Analytics" history --days 14');
    const b = chartButton(reply, 'vis:chart:citations-history');
    expect(b.text.text).toBe('Post chart to channel');
    // In the same row as "Share in channel".
    const row = reply.blocks.find((x) => x['block_id'] === 'vis:share') as {
      elements: { action_id: string }[];
    };
    expect(row.elements.map((e) => e.action_id).slice(-2)).toEqual([
      'vis:share',
      'vis:chart:citations-history',
    ]);

    // The history request is held back: the click's answer cannot have waited for it.
    h.sim.control.injectFault({ kind: 'latency', ms: 1500, path: '/get-citations', count: 1 });
    const click = await clickChart(reply, 'vis:chart:citations-history');
    expect(click.status).toBe(200);
    expect(h.slack.files()).toEqual([]);

    const [file] = await h.slack.waitFor(
      () => h.slack.files(h.slack.defaultChannelId).length > 0 && h.slack.files(h.slack.defaultChannelId),
      15_000,
    );
    expect(checkPng(file!.bytes)).toMatchObject({ ok: true });
    expect(file!.title).toBe(`Brand mentions · ${acme.name}`);
    expect(file!.altText).toContain(`${acme.name} brand mentions`);
    expect(file!.altText).toMatch(/\d/);
    const histories = h.requestsTo('/get-citations', 'GET').filter((r) => r.query['view'] === 'history');
    expect(histories.map((r) => r.query['days'])).toEqual(['14', '14']);
    const shared = h.slack.messages(h.slack.defaultChannelId).find((m) => m.ts === file!.messageTs);
    expect(shared?.text).toContain(`posted by <@${h.slack.defaultUserId}>`);
  });

  it('on the crawler overview: the chart of the reply’s range', async () => {
    const { reply } = await h.command('crawler "Acme Analytics" 30d');
    expect(JSON.parse(chartButton(reply, 'vis:chart:crawler').value!)).toEqual({
      brandId: acme.id,
      range: { rangePreset: '30d' },
    });
    await clickChart(reply, 'vis:chart:crawler');
    const [file] = await h.slack.waitFor(() => h.slack.files().length > 0 && h.slack.files(), 15_000);
    expect(file!.channel).toBe(h.slack.defaultChannelId);
    expect(checkPng(file!.bytes)).toMatchObject({ ok: true });
    expect(file!.title).toContain(acme.name);
    expect(file!.altText).toMatch(/\d/);
    const overviews = h.requestsTo('/crawler/overview', 'GET');
    expect(overviews.at(-1)?.query['range_preset']).toBe('30d');
  });

  it('on a compared crawler overview: the previous period drawn too, from its own days', async () => {
    const { reply } = await h.command('crawler "Acme Analytics" 7d --compare');
    expect(JSON.parse(chartButton(reply, 'vis:chart:crawler').value!)).toEqual({
      brandId: acme.id,
      range: { rangePreset: '7d' },
      compareTo: 'previous_period',
    });
    await clickChart(reply, 'vis:chart:crawler');
    const [file] = await h.slack.waitFor(() => h.slack.files().length > 0 && h.slack.files(), 15_000);
    expect(checkPng(file!.bytes)).toMatchObject({ ok: true });
    expect(file!.altText).toMatch(/previous period [\d,]+/);
    // The chart's two requests: the range itself, then the seven days before it.
    const [current, previous] = h.requestsTo('/crawler/overview', 'GET').slice(-2);
    expect(current?.query['range_preset']).toBe('7d');
    expect(previous?.query['range_preset']).toBe('custom');
    const end = new Date(`${previous!.query['end_date']}T00:00:00Z`).getTime();
    const start = new Date(`${previous!.query['start_date']}T00:00:00Z`).getTime();
    expect((end - start) / 86_400_000).toBe(6);
  });

  it('on aipages: this period’s usage against the limit', async () => {
    // Ten days before the reset (the bot and the simulator run on the wall clock here).
    const reset = new Date(Date.now() + 10 * 86_400_000).toISOString();
    h.sim.control.setAiPagesUsage(acme.id, { percentageUsed: 42, resetDate: reset });
    const { reply } = await h.command('aipages "Acme Analytics"');
    await clickChart(reply, 'vis:chart:aipages');
    const [file] = await h.slack.waitFor(() => h.slack.files().length > 0 && h.slack.files(), 15_000);
    expect(checkPng(file!.bytes)).toMatchObject({ ok: true });
    expect(file!.title).toContain(acme.name);
    expect(file!.altText).toContain('42 %');
  });

  it('in a channel the bot is not in: an ephemeral explanation, no file', async () => {
    const { reply } = await h.command('citations "Acme Analytics" history');
    h.slack.setChannelState(h.slack.defaultChannelId, { isMember: false });
    const click = await clickChart(reply, 'vis:chart:citations-history');
    const post = await h.slack.waitFor(() => h.slack.responsesFor(click.responseUrlId)[0], 15_000);
    const text = visibleText(post.body as ReplyBody);
    expect(text).toContain('The chart could not be posted');
    expect(text).toContain('/invite @visibility-bot');
    expect((post.body as ReplyBody).response_type ?? 'ephemeral').toBe('ephemeral');
    expect(h.slack.files()).toEqual([]);
  });
});
