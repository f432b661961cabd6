/**
 * The digest's chart as a channel that chose `charts=image` sees it: one image per brand, in the digest's thread,
 * uploaded after the digest's text, with alt text that states the figures; none where the
 * subscription set digest-chart=off, and the digest's text the same either way. Then the
 * crash: run-job killed after Slack shared the chart and before the outbox marked it; the
 * next run finds the file in the thread and uploads nothing again.
 */

import { describe, expect, it } from 'vitest';
import { checkPng } from '../../src/dev/local-slack/check-png.js';
import { sqliteDbOf } from '../store/temp-db.js';
import { acme, messageText, northwind, useAlertsHarness } from './alerts-harness.js';

const h = useAlertsHarness();

const chartRows = () =>
  sqliteDbOf(h.deps.store)
    .prepare(
      `SELECT status, upload_file_id, slack_ts, last_error FROM outbox WHERE kind = 'chart' ORDER BY id`,
    )
    .all() as {
    status: string;
    upload_file_id: string | null;
    slack_ts: string | null;
    last_error: string | null;
  }[];

describe('digest charts', () => {
  it('follow each digest in its thread with alt text; off means text only, and the text is the same', async () => {
    const withChart = h.channel('CCHARTON');
    const textOnly = h.channel('CCHARTOFF');
    await h.command('subscribe "Acme Analytics" digest', withChart);
    await h.command('settings "Acme Analytics" charts=image', withChart);
    await h.command('subscribe "Acme Analytics" digest', textOnly);
    await h.command('settings "Acme Analytics" charts=image', textOnly);
    const settings = await h.command('settings "Acme Analytics" digest-chart=off', textOnly);
    expect(JSON.stringify(settings)).toContain('text only');

    const run = await h.runJobs('digest');
    expect(run.jobs[0]).toMatchObject({ job: 'digest', status: 'ok', messages: 2 });

    const [digest] = h.posts(withChart);
    const [plain] = h.posts(textOnly);
    expect(digest?.text).toContain('Acme Analytics: daily digest');
    // The digest stands on its own: the same text and blocks with or without the chart.
    expect(digest?.text).toBe(plain?.text);
    expect(JSON.stringify(digest?.blocks)).toBe(JSON.stringify(plain?.blocks));

    const files = h.slack.files(withChart);
    expect(files).toHaveLength(1);
    const file = files[0]!;
    expect(file.thread_ts).toBe(digest?.ts);
    expect(checkPng(file.bytes)).toMatchObject({ ok: true });
    expect(file.width).toBeGreaterThan(100);
    expect(file.title).toContain('Acme Analytics');
    // Alt text names the brand and states figures (digits), for a screen reader.
    expect(file.altText).toContain('Acme Analytics');
    expect(file.altText).toMatch(/citations/i);
    expect(file.altText).toMatch(/\d/);
    const shared = h.slack.messages(withChart).find((m) => m.ts === file.messageTs);
    expect(shared?.text).toContain('Acme Analytics');

    // Text first: the digest was posted before the upload began.
    const order = h.slack.calls
      .filter((c) => c.args['channel'] === withChart || c.method.startsWith('files.'))
      .map((c) => c.method);
    expect(order.indexOf('chat.postMessage')).toBeLessThan(order.indexOf('files.getUploadURLExternal'));

    expect(h.slack.files(textOnly)).toEqual([]);
    expect(chartRows()).toEqual([
      expect.objectContaining({ status: 'sent', upload_file_id: file.id, slack_ts: file.id }),
    ]);

    // A second run posts nothing new: no second digest, no second chart.
    await h.runJobs('digest');
    expect(h.slack.files(withChart)).toHaveLength(1);
    expect(h.posts(withChart)).toHaveLength(1);
  });

  it('no chart is drawn before every digest of the channel is posted', async () => {
    const ch = h.channel('CCHARTMANY');
    await h.command('subscribe "Acme Analytics" digest', ch);
    await h.command('settings "Acme Analytics" charts=image', ch);
    await h.command('subscribe "Northwind Outfitters" digest', ch);
    await h.command('settings "Northwind Outfitters" charts=image', ch);
    await h.command('subscribe "Globex Corporation" digest', ch);
    await h.command('settings "Globex Corporation" charts=image', ch);
    await h.runJobs('digest');
    const digests = h.posts(ch);
    expect(digests).toHaveLength(3);
    const files = h.slack.files(ch);
    expect(files).toHaveLength(3);
    // Each chart in its own brand's digest thread.
    for (const f of files) {
      const parent = digests.find((d) => d.ts === f.thread_ts);
      expect(parent?.text).toContain(f.title.split(' · ')[0]);
    }
    // Every digest of the channel went out before the first chart was uploaded there.
    const here = h.slack.calls.filter((c) => c.args['channel'] === ch || c.args['channel_id'] === ch);
    const kinds = here
      .filter((c) => c.method === 'chat.postMessage' || c.method === 'files.completeUploadExternal')
      .map((c) => c.method)
      .slice(-6);
    expect(kinds).toEqual([
      'chat.postMessage',
      'chat.postMessage',
      'chat.postMessage',
      'files.completeUploadExternal',
      'files.completeUploadExternal',
      'files.completeUploadExternal',
    ]);
  });

  it('a run-job killed after Slack shared the chart does not upload it again', async () => {
    const ch = h.channel('CCHARTCRASH');
    await h.command('subscribe "Northwind Outfitters" digest', ch);
    await h.command('settings "Northwind Outfitters" charts=image', ch);
    // Slack shares the file, and the answer never comes: the process is killed waiting.
    h.slack.stallAfterAccept('files.completeUploadExternal', 1);
    const first = h.spawnRunJob('digest');
    await h.slack.waitFor(
      () => h.slack.calls.some((c) => c.method === 'files.completeUploadExternal' && c.stalled),
      30_000,
    );
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    expect(h.slack.files(ch)).toHaveLength(1);
    const reserved = h.slack.files(ch)[0]!.id;
    // Recorded before the bytes went out, still 'sending': the dead process never marked it.
    expect(chartRows().at(-1)).toMatchObject({ status: 'sending', upload_file_id: reserved });

    const uploadsBefore = h.slack.callsTo('files.getUploadURLExternal').length;
    const restart = await h.runJobProcess('digest');
    expect(restart.stderr).toBe('');
    expect(restart.code).toBe(0);
    // It looked in the digest's thread, found the file, and uploaded nothing.
    expect(h.slack.callsTo('conversations.replies').length).toBeGreaterThanOrEqual(1);
    expect(h.slack.callsTo('files.getUploadURLExternal').length).toBe(uploadsBefore);
    expect(h.slack.files(ch)).toHaveLength(1);
    expect(h.posts(ch).filter((m) => messageText(m).includes(northwind.name))).toHaveLength(1);
    expect(chartRows().at(-1)).toMatchObject({ status: 'sent', slack_ts: reserved });
  });

  it('a chart whose upload was never completed is uploaded once on the next attempt', async () => {
    const ch = h.channel('CCHARTRETRY');
    await h.command('subscribe "Acme Analytics" digest', ch);
    await h.command('settings "Acme Analytics" charts=image', ch);
    // Slack refuses the completion once: nothing was shared, the reserved file is dropped.
    h.slack.failNext('files.completeUploadExternal', 'internal_error');
    const run = await h.runJobs('digest', { relay: { paceMs: 20, backoffBaseMs: 10 } });
    expect(run.jobs[0]).toMatchObject({ job: 'digest', status: 'ok' });
    const completions = h.slack
      .callsTo('files.completeUploadExternal')
      .filter((c) => c.args['channel_id'] === ch);
    expect(completions.map((c) => c.response['ok'])).toEqual([false, true]);
    expect(h.slack.files(ch)).toHaveLength(1);
    expect(h.slack.files(ch)[0]?.thread_ts).toBe(h.posts(ch)[0]?.ts);
    expect(h.posts(ch).filter((m) => messageText(m).includes(acme.name))).toHaveLength(1);
  });
});

type Block = { type: string; block_id?: string; slack_file?: { id: string }; elements?: { text: string }[] };
const blocksOf = (m: { blocks?: unknown }) => (m.blocks ?? []) as Block[];
const postsTo = (ch: string) => h.slack.callsTo('chat.postMessage').filter((c) => c.args['channel'] === ch);

describe('digest charts drawn by Slack (charts=native, the default)', () => {
  it('sit inside the digest with the text line stating their numbers; nothing is uploaded', async () => {
    const ch = h.channel('CNATIVE');
    await h.command('subscribe "Acme Analytics" digest', ch);
    const files = h.slack.files().length;
    const charts = chartRows().length;
    await h.runJobs('digest');
    const [digest, more] = h.posts(ch);
    expect(more).toBeUndefined();
    const blocks = blocksOf(digest!);
    const at = blocks.findIndex((b) => b.type === 'data_visualization');
    expect(at).toBeGreaterThan(0);
    const line = blocks[at + 1]!;
    expect(line.type).toBe('context');
    expect(line.elements![0]!.text).toContain('Acme Analytics');
    expect(line.elements![0]!.text).toMatch(/citations.*\d/i);
    expect(h.slack.files()).toHaveLength(files);
    expect(chartRows()).toHaveLength(charts);
  });

  it('refused by Slack: the digest goes once with the image, and later runs (new processes) send images at once', async () => {
    h.slack.refuseBlocks(['data_visualization']);
    const ch = h.channel('CREFUSED');
    await h.command('subscribe "Northwind Outfitters" digest', ch);
    const notes = postsTo(ch).length;
    const run = await h.runJobProcess('digest');
    expect(run.code).toBe(0);
    expect(
      postsTo(ch)
        .slice(notes)
        .map((c) => c.response['error'] ?? 'ok'),
    ).toEqual(['invalid_blocks', 'ok']);
    const [digest, more] = h.posts(ch);
    expect(more).toBeUndefined();
    expect(blocksOf(digest!).some((b) => b.type === 'data_visualization')).toBe(false);
    const image = blocksOf(digest!).find((b) => b.type === 'image');
    const file = h.slack.files().find((f) => f.id === image?.slack_file?.id);
    expect(checkPng(file!.bytes)).toMatchObject({ ok: true });
    expect(file!.altText).toContain(northwind.name);
    // The text line stays beside the image.
    const at = blocksOf(digest!).indexOf(image!);
    expect(blocksOf(digest!)[at + 1]!.elements![0]!.text).toBe(file!.altText);

    // Slack would draw charts again, but this workspace is remembered: straight to images.
    h.slack.acceptBlocks();
    const later = h.channel('CLATER');
    await h.command('subscribe "Acme Analytics" digest', later);
    const laterNotes = postsTo(later).length;
    expect((await h.runJobProcess('digest')).code).toBe(0);
    expect(
      postsTo(later)
        .slice(laterNotes)
        .map((c) => c.response['error'] ?? 'ok'),
    ).toEqual(['ok']);
    const [next] = h.posts(later);
    expect(blocksOf(next!).some((b) => b.type === 'image')).toBe(true);
    expect(blocksOf(next!).some((b) => b.type === 'data_visualization')).toBe(false);
  });
});
