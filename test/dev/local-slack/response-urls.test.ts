import { describe, expect, it } from 'vitest';
import { useAckServer, useFixture } from './local-slack-fixture.js';

const f = useFixture();
const app = useAckServer();

const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text } });

/** Runs a slash command against the ack server and returns its hosted response_url. */
async function command(text = 'brands'): Promise<{ id: string; url: string }> {
  const { responseUrlId } = await f.slack.slashCommand(app.url, { text });
  const sent = new URLSearchParams(app.requests.at(-1)?.body);
  return { id: responseUrlId, url: sent.get('response_url')! };
}

async function respond(url: string, body: unknown): Promise<{ status: number; text: string }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

describe('hosted response_url', () => {
  it('is sent in the command and records every post', async () => {
    const { id, url } = await command();
    expect(url).toBe(`${f.slack.url.replace(/\/api\/$/, '')}/response/${id}`);
    expect(await respond(url, { text: 'Working…' })).toEqual({ status: 200, text: '{"ok":true}' });
    expect(f.slack.responsesFor(id)).toMatchObject([
      { responseUrlId: id, body: { text: 'Working…' }, status: 200 },
    ]);
    expect(f.slack.responses).toHaveLength(1);
  });

  it('allows 5 uses, then answers 404 used_url', async () => {
    const { id, url } = await command();
    for (let i = 1; i <= 5; i++) expect((await respond(url, { text: `reply ${i}` })).status).toBe(200);
    expect(await respond(url, { text: 'sixth' })).toEqual({ status: 404, text: 'used_url' });
    expect(f.slack.responsesFor(id).map((p) => p.status)).toEqual([200, 200, 200, 200, 200, 404]);
    expect(f.slack.responsesFor(id).at(-1)?.error).toBe('used_url');
  });

  it('expires 30 minutes after the interaction (injected clock)', async () => {
    const { url } = await command();
    f.clock.advance(30 * 60 * 1000);
    expect((await respond(url, { text: 'just in time' })).status).toBe(200);
    f.clock.advance(1);
    expect(await respond(url, { text: 'late' })).toEqual({ status: 404, text: 'expired_url' });
  });

  it('keeps ephemeral replies to the user and in_channel replies in the channel', async () => {
    const { url } = await command();
    await respond(url, { text: 'just you', blocks: [section('just you')] });
    await respond(url, { response_type: 'in_channel', text: 'everyone' });
    expect(f.slack.ephemeralMessages(f.slack.defaultUserId).map((m) => m.text)).toEqual(['just you']);
    expect(f.slack.messages(f.slack.defaultChannelId).map((m) => [m.text, m.via])).toEqual([
      ['everyone', 'response_url'],
    ]);
  });

  it('replace_original replaces the previous reply; delete_original removes it', async () => {
    const { url } = await command();
    await respond(url, { text: 'Loading…' });
    await respond(url, { replace_original: true, text: 'Loaded' });
    const mine = () => f.slack.ephemeralMessages(f.slack.defaultUserId).map((m) => m.text);
    expect(mine()).toEqual(['Loaded']);
    await respond(url, { delete_original: true });
    expect(mine()).toEqual([]);
  });

  it('validates like chat.postMessage: 400 with the error as text, not counted as a use', async () => {
    const { id, url } = await command();
    const tooMany = Array.from({ length: 51 }, () => ({ type: 'divider' }));
    expect(await respond(url, { text: 'x', blocks: tooMany })).toEqual({
      status: 400,
      text: 'invalid_blocks',
    });
    expect(f.slack.responsesFor(id)[0]?.errors).toEqual([
      'no more than 50 items allowed [json-pointer:/blocks]',
    ]);
    expect(await respond(url, { text: 'x'.repeat(40_001) })).toEqual({ status: 400, text: 'msg_too_long' });
    expect(await respond(url, 'not json')).toEqual({ status: 400, text: 'invalid_payload' });
    expect(await respond(url, {})).toEqual({ status: 400, text: 'no_text' });
    for (let i = 0; i < 5; i++) expect((await respond(url, { text: 'fine' })).status).toBe(200);
  });

  it('answers 404 for a response_url it never issued', async () => {
    const res = await respond(`${f.slack.url.replace(/\/api\/$/, '')}/response/R0NOPE`, { text: 'x' });
    expect(res).toEqual({ status: 404, text: 'no_service' });
  });

  it('shows a slash command ack body to the user, as Slack does', async () => {
    app.answer.body = JSON.stringify({ text: 'On it' });
    await command();
    expect(f.slack.ephemeralMessages(f.slack.defaultUserId).map((m) => [m.text, m.via])).toEqual([
      ['On it', 'ack'],
    ]);
  });
});

describe('block action response_urls', () => {
  it('replace_original on an action replaces the clicked message; reusing the command url shares its budget', async () => {
    const posted = await f.client.chat.postMessage({
      channel: f.slack.defaultChannelId,
      text: 'Alert',
      blocks: [
        section('Alert'),
        {
          type: 'actions',
          elements: [{ type: 'button', action_id: 'snooze', text: { type: 'plain_text', text: 'Snooze' } }],
        },
      ],
    });
    const { responseUrlId } = await f.slack.blockAction(app.url, {
      actionId: 'snooze',
      messageTs: posted.ts!,
    });
    const payload = JSON.parse(new URLSearchParams(app.requests.at(-1)?.body).get('payload')!);
    await respond(payload.response_url, { replace_original: true, text: 'Snoozed for 24 h' });
    expect(f.slack.messages(f.slack.defaultChannelId).map((m) => m.text)).toEqual(['Snoozed for 24 h']);
    expect(f.slack.responsesFor(responseUrlId)).toHaveLength(1);

    const cmd = await command();
    for (let i = 0; i < 4; i++) await respond(cmd.url, { text: `r${i}` });
    const reused = await f.slack.blockAction(app.url, {
      actionId: 'snooze',
      messageTs: posted.ts!,
      responseUrlId: cmd.id,
    });
    expect(reused.responseUrlId).toBe(cmd.id);
    expect((await respond(cmd.url, { text: 'fifth' })).status).toBe(200);
    expect((await respond(cmd.url, { text: 'sixth' })).status).toBe(404);
  });
});
