/**
 * Charts inside the reply, through the real service, the simulator and the local Slack:
 * each chart is a `data_visualization` block the local Slack's validator accepts, with a
 * text line stating its numbers (the image's alt text). When Slack refuses the block, the
 * same reply goes out once with the chart as an image and the workspace is remembered,
 * across a restart; `charts=image` sends images from the start.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createAppDeps } from '../../src/app-deps.js';
import { checkPng } from '../../src/dev/local-slack/check-png.js';
import type { ResponseUrlPost } from '../../src/dev/local-slack/types.js';
import { SEED_BRANDS } from '../../src/dev/simulator/index.js';
import { startService } from '../../src/slack/create-slack-app.js';
import { buttonValue, type ReplyBody } from './read-commands-harness.js';
import { captureLogger, type Harness, startHarness } from './service-harness.js';

const acme = SEED_BRANDS.acme;

type Block = Record<string, unknown> & { type: string };
const blocksOf = (post: ResponseUrlPost) => ((post.body as { blocks?: Block[] }).blocks ?? []) as Block[];
const ofType = (post: ResponseUrlPost, type: string) => blocksOf(post).filter((b) => b.type === type);

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Runs `/visibility text` and waits until its response URL got `count` posts. */
async function command(harness: Harness, text: string, count = 1, channelId?: string) {
  const res = await harness.slack.slashCommand(harness.appUrl, { text, ...(channelId ? { channelId } : {}) });
  expect(res.status).toBe(200);
  return harness.slack.waitFor(() => {
    const posts = harness.slack.responsesFor(res.responseUrlId);
    return posts.length >= count && posts;
  }, 15_000);
}

/** The text line beside a chart: the context block right after it. */
function textLineAfter(post: ResponseUrlPost, type: string): string {
  const blocks = blocksOf(post);
  const at = blocks.findIndex((b) => b.type === type);
  const line = blocks[at + 1] as { type: string; elements: { text: string }[] };
  expect(line.type).toBe('context');
  return line.elements[0]!.text;
}

/** The image block's file: a PNG the bot uploaded, shared nowhere (the reply shows it). */
function imageFile(harness: Harness, post: ResponseUrlPost) {
  const [image] = ofType(post, 'image') as unknown as { slack_file: { id: string }; alt_text: string }[];
  expect(image).toBeDefined();
  const file = harness.slack.files().find((f) => f.id === image!.slack_file.id);
  expect(file).toBeDefined();
  expect(checkPng(file!.bytes)).toMatchObject({ ok: true });
  expect(file!.channel).toBeUndefined();
  return { image: image!, file: file! };
}

describe('native charts in replies', () => {
  it('citation history, crawler visits and AI Pages usage each carry a chart Slack accepts, with its numbers beside it', async () => {
    h = await startHarness();
    const reset = new Date(Date.now() + 10 * 86_400_000).toISOString();
    h.sim.control.setAiPagesUsage(acme.id, { percentageUsed: 42, resetDate: reset });
    const posts: ResponseUrlPost[] = [];
    for (const [text, title] of [
      ['citations "Acme Analytics" history --days 14', `Brand mentions · ${acme.name}`],
      ['crawler "Acme Analytics" 7d', `AI crawler visits · ${acme.name}`],
      ['aipages "Acme Analytics"', `AI Pages usage · ${acme.name}`],
    ] as const) {
      const [post] = await command(h, text);
      posts.push(post!);
      // The local Slack validates the block against Slack's reference: accepted.
      expect(post!.status, JSON.stringify(post!.errors)).toBe(200);
      const [chart] = ofType(post!, 'data_visualization') as unknown as {
        title: string;
        chart: { series: unknown[] };
      }[];
      expect(chart?.title).toBe(title);
      expect(chart!.chart.series.length).toBeGreaterThan(0);
      const line = textLineAfter(post!, 'data_visualization');
      expect(line).toContain(acme.name);
      expect(line).toMatch(/\d/);
    }
    // The AI Pages chart draws the forecast and the limit beside the requests used.
    const aipages = posts[2]!;
    const names = (
      ofType(aipages, 'data_visualization')[0] as unknown as { chart: { series: { name: string }[] } }
    ).chart.series.map((s) => s.name);
    expect(names).toEqual(['Requests used', 'At this pace', 'Limit']);
    expect(textLineAfter(aipages, 'data_visualization')).toContain('42 %');
    // Nothing was uploaded: Slack draws these itself.
    expect(h.slack.files()).toEqual([]);
  });

  it('the page drawer carries the page’s daily visits as a chart, with their total beside it', async () => {
    h = await startHarness();
    const [list] = await command(h, 'crawler "Acme Analytics" pages --limit 1');
    const entityId = String(buttonValue(list!.body as ReplyBody, 'vis:crawler:drawer:0')['entityId']);
    const [drawer] = await command(h, `crawler "Acme Analytics" details page "${entityId}" 7d`);
    expect(drawer!.status, JSON.stringify(drawer!.errors)).toBe(200);
    const [chart] = ofType(drawer!, 'data_visualization') as unknown as {
      title: string;
      chart: { type: string; series: { data: unknown[] }[] };
    }[];
    expect(chart?.title).toMatch(/^AI crawler visits · /);
    expect(chart!.chart.type).toBe('bar');
    expect(chart!.chart.series[0]!.data).toHaveLength(7);
    expect(textLineAfter(drawer!, 'data_visualization')).toMatch(/[\d,]+ in total/);
  });

  it('a refused chart: the reply goes out once more with the image, and the workspace is remembered across a restart', async () => {
    h = await startHarness();
    h.slack.refuseBlocks(['data_visualization']);
    const [refused, accepted, extra] = await command(h, 'citations "Acme Analytics" history', 2);
    expect(refused!.error).toBe('invalid_blocks');
    expect(accepted!.status).toBe(200);
    expect(extra).toBeUndefined();
    // The same reply: the chart's place holds the image, the text line and buttons stay.
    expect(ofType(accepted!, 'data_visualization')).toEqual([]);
    const { image, file } = imageFile(h, accepted!);
    expect(textLineAfter(accepted!, 'image')).toBe(textLineAfter(refused!, 'data_visualization'));
    expect(image.alt_text).toBe(file.altText);
    expect(blocksOf(accepted!).map((b) => b.type)).toEqual(
      blocksOf(refused!).map((b) => (b.type === 'data_visualization' ? 'image' : b.type)),
    );

    // Later replies in this workspace go straight to images: no refusal first.
    const [next, again] = await command(h, 'crawler "Acme Analytics" 7d');
    expect(next!.status).toBe(200);
    expect(again).toBeUndefined();
    imageFile(h, next!);

    // Restarted (same database, Slack accepting charts again): still images.
    h.slack.acceptBlocks();
    await h.service.stop();
    await h.deps.close();
    const deps = createAppDeps(h.config, { logger: captureLogger(h.config, h.logLines) });
    const service = await startService(deps, { port: 0, drainTimeoutMs: 5000 });
    Object.assign(h, { deps, service, appUrl: `${service.url}/slack/events` });
    const [afterRestart] = await command(h, 'citations "Acme Analytics" history');
    expect(afterRestart!.status).toBe(200);
    expect(ofType(afterRestart!, 'data_visualization')).toEqual([]);
    imageFile(h, afterRestart!);
  });

  it('charts=image in a subscription of the channel: images from the start, said in words in the settings', async () => {
    h = await startHarness();
    const ch = h.slack.defaultChannelId;
    await command(h, 'subscribe "Acme Analytics" alerts', 1, ch);
    const [changed] = await command(h, 'settings "Acme Analytics" charts=image', 1, ch);
    expect(JSON.stringify(changed!.body)).toContain('Charts');
    expect(JSON.stringify(changed!.body)).toContain('as images');
    const [post, more] = await command(h, 'citations "Acme Analytics" history', 1, ch);
    expect(post!.status).toBe(200);
    expect(more).toBeUndefined();
    expect(ofType(post!, 'data_visualization')).toEqual([]);
    imageFile(h, post!);
    // The workspace itself was not marked: another channel still gets Slack's charts.
    h.slack.addChannel({ id: 'COTHER', name: 'other', isMember: true });
    const [elsewhere] = await command(h, 'citations "Acme Analytics" history', 1, 'COTHER');
    expect(ofType(elsewhere!, 'data_visualization')).toHaveLength(1);
  });
});
