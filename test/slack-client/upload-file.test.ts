import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebClient } from '@slack/web-api';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { type StoredFile, startLocalSlack } from '../../src/dev/local-slack/index.js';
import { FileUploadError, uploadFile } from '../../src/slack-client/upload-file.js';
import { platformError, quietLogger, useFixture } from '../dev/local-slack/local-slack-fixture.js';
import { tinyPng } from '../helpers/tiny-png.js';

const f = useFixture();
beforeEach(() => {
  f.slack.addChannel({ id: 'C0CHARTS', name: 'charts' });
});

const chart = (bytes: Buffer = tinyPng(6, 5)) => ({
  channel: 'C0CHARTS',
  bytes,
  fileName: 'acme-citations.png',
  title: 'Acme: citations, last 7 days',
  altText: 'Line chart: Acme citations rose from 10 to 14 over 7 days.',
  initialComment: 'Citations for Acme, last 7 days',
});

describe('uploading a file with the external upload flow', () => {
  it('shares a valid PNG in the channel with its title, alt text and comment', async () => {
    const reserved: string[] = [];
    const png = tinyPng(6, 5);
    const { fileId } = await uploadFile(f.client, chart(png), {
      onReserved: (id) => {
        reserved.push(id);
        // Recorded before Slack has anything to share.
        expect(f.slack.files()).toHaveLength(0);
      },
    });

    expect(reserved).toEqual([fileId]);
    expect(f.slack.calls.map((c) => c.method)).toEqual([
      'files.getUploadURLExternal',
      'files.completeUploadExternal',
    ]);
    const [file] = f.slack.files('C0CHARTS');
    expect(file).toMatchObject({
      id: fileId,
      name: 'acme-citations.png',
      title: 'Acme: citations, last 7 days',
      altText: 'Line chart: Acme citations rose from 10 to 14 over 7 days.',
      width: 6,
      height: 5,
      thread_ts: undefined,
    });
    expect(file?.bytes.equals(png)).toBe(true);
    // Under the name Slack's method reference documents (the local Slack reads only that one).
    expect(f.slack.callsTo('files.getUploadURLExternal')[0]?.args).toMatchObject({
      alt_txt: 'Line chart: Acme citations rose from 10 to 14 over 7 days.',
    });
    const [message] = f.slack.messages('C0CHARTS');
    expect(message?.text).toBe('Citations for Acme, last 7 days');
    expect(message?.files?.map((x) => x.id)).toEqual([fileId]);
    expect(file?.messageTs).toBe(message?.ts);
  });

  it('shares into a thread, and conversations.replies shows the file there', async () => {
    const parent = await f.client.chat.postMessage({ channel: 'C0CHARTS', text: 'Daily digest' });
    const { fileId } = await uploadFile(f.client, { ...chart(), threadTs: parent.ts });
    expect(f.slack.files('C0CHARTS')[0]?.thread_ts).toBe(parent.ts);
    const replies = await f.client.conversations.replies({ channel: 'C0CHARTS', ts: parent.ts! });
    const shared = replies.messages?.find((m) => m.files?.some((x) => x.id === fileId));
    expect(shared?.thread_ts).toBe(parent.ts);
  });

  it('refuses bytes that are not a PNG, and shares nothing', async () => {
    const err = await uploadFile(f.client, chart(Buffer.from('<svg>not a png</svg>'))).catch((e) => e);
    expect(err).toBeInstanceOf(FileUploadError);
    expect((err as FileUploadError).status).toBe(400);
    expect((err as FileUploadError).permanent).toBe(true);
    expect((err as Error).message).toContain('signature');
    expect(f.slack.callsTo('files.completeUploadExternal')).toHaveLength(0);
    expect(f.slack.files()).toHaveLength(0);
    expect(f.slack.messages('C0CHARTS')).toHaveLength(0);
  });

  it('refuses a PNG whose IHDR is damaged', async () => {
    const damaged = tinyPng(6, 5);
    damaged[18] = (damaged[18] ?? 0) ^ 0xff; // the width changes, the checksum no longer matches
    const err = await uploadFile(f.client, chart(damaged)).catch((e) => e);
    expect((err as Error).message).toContain('checksum');
    expect(f.slack.files()).toHaveLength(0);
  });

  it('answers not_in_channel when the bot is not in the channel, as Slack does', async () => {
    f.slack.setChannelState('C0CHARTS', { isMember: false });
    const { error } = await platformError(uploadFile(f.client, chart()));
    expect(error).toBe('not_in_channel');
    expect(f.slack.files()).toHaveLength(0);
  });

  it("takes @slack/web-api's own files.uploadV2 (multipart bytes), whose alt_text is not the documented name", async () => {
    const png = tinyPng(3, 3);
    await f.client.filesUploadV2({
      channel_id: 'C0CHARTS',
      file: png,
      filename: 'v2.png',
      title: 'Via uploadV2',
      alt_text: 'three by three',
    });
    expect(f.slack.files('C0CHARTS')[0]).toMatchObject({ name: 'v2.png', altText: undefined });
    expect(f.slack.files('C0CHARTS')[0]?.bytes.equals(png)).toBe(true);
  });

  it('cuts alt text to the 1,000 characters Slack takes; more is alt_txt_too_large', async () => {
    const long = `${'A chart that says a lot. '.repeat(60)}`;
    await uploadFile(f.client, { ...chart(), altText: long });
    expect(f.slack.files('C0CHARTS')[0]?.altText).toBe(long.slice(0, 1000));

    const { error } = await platformError(
      f.client.files.getUploadURLExternal({ filename: 'x.png', length: 10, alt_txt: long } as never),
    );
    expect(error).toBe('alt_txt_too_large');
  });
});

describe('a files directory (the demo)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'local-slack-files-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes each shared PNG there and reports its path', async () => {
    const seen: StoredFile[] = [];
    const slack = await startLocalSlack({ filesDirectory: dir, onFile: (file) => seen.push(file) });
    try {
      const client = new WebClient(slack.botToken, {
        slackApiUrl: slack.url,
        retryConfig: { retries: 0 },
        logger: quietLogger,
      });
      const png = tinyPng(2, 2);
      await uploadFile(client, { ...chart(png), channel: slack.defaultChannelId, fileName: '../x/acme.png' });
      expect(seen).toHaveLength(1);
      expect(seen[0]?.path).toBe(join(dir, 'acme.png'));
      expect(readFileSync(join(dir, 'acme.png')).equals(png)).toBe(true);
    } finally {
      await slack.close();
    }
  });
});
