import { ErrorCode, WebClient } from '@slack/web-api';
import { beforeEach, describe, expect, it } from 'vitest';
import { platformError, quietLogger, startAckServer, useFixture } from './local-slack-fixture.js';

const f = useFixture();
beforeEach(() => {
  f.slack.addChannel({ id: 'C0ALERTS', name: 'alerts' });
});

const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text } });

describe('auth and dispatch', () => {
  it('answers auth.test with the bot identity', async () => {
    const res = await f.client.auth.test();
    expect(res).toMatchObject({
      ok: true,
      team_id: f.slack.teamId,
      user_id: f.slack.botUserId,
      bot_id: f.slack.botId,
    });
    expect(res.url).toMatch(/^https:\/\//);
    const [call] = f.slack.callsTo('auth.test');
    expect(call?.token).toBe(f.slack.botToken);
  });

  it('rejects an unknown token with invalid_auth and a missing one with not_authed', async () => {
    const stranger = new WebClient('xoxb-not-ours', {
      slackApiUrl: f.slack.url,
      retryConfig: { retries: 0 },
      logger: quietLogger,
    });
    expect((await platformError(stranger.auth.test())).error).toBe('invalid_auth');
    const anonymous = new WebClient(undefined, {
      slackApiUrl: f.slack.url,
      retryConfig: { retries: 0 },
      logger: quietLogger,
    });
    expect((await platformError(anonymous.auth.test())).error).toBe('not_authed');
  });

  it('accepts the token as a form field and JSON bodies with a Bearer header', async () => {
    const form = await fetch(`${f.slack.url}auth.test`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: f.slack.botToken }).toString(),
    });
    expect(await form.json()).toMatchObject({ ok: true });
    const json = await fetch(`${f.slack.url}chat.postMessage`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        authorization: `Bearer ${f.slack.botToken}`,
      },
      body: JSON.stringify({ channel: 'C0ALERTS', text: 'hi', blocks: [section('hi')] }),
    });
    expect(await json.json()).toMatchObject({ ok: true, channel: 'C0ALERTS' });
    expect(f.slack.messages('C0ALERTS')[0]?.blocks).toEqual([section('hi')]);
  });

  it('answers unknown_method for methods it does not know', async () => {
    expect((await platformError(f.client.apiCall('chat.teleport', {}))).error).toBe('unknown_method');
  });
});

describe('chat.postMessage', () => {
  it('stores text, blocks (sent as JSON strings in a form body) and metadata, and returns ts and message', async () => {
    const metadata = { event_type: 'visibility_alert', event_payload: { key: 'brand-1:2025-01-15' } };
    const res = await f.client.chat.postMessage({
      channel: 'C0ALERTS',
      text: 'Citations lost',
      blocks: [section('*Citations lost*')],
      metadata,
    });
    expect(res.ok).toBe(true);
    expect(res.channel).toBe('C0ALERTS');
    expect(res.ts).toMatch(/^\d{10}\.\d{6}$/);
    expect(res.message).toMatchObject({ text: 'Citations lost', bot_id: f.slack.botId });
    const [stored] = f.slack.messages('C0ALERTS');
    expect(stored).toMatchObject({ ts: res.ts, text: 'Citations lost', metadata, thread_ts: undefined });
    expect(stored?.blocks).toEqual([section('*Citations lost*')]);
    const [call] = f.slack.callsTo('chat.postMessage');
    expect(call?.args['blocks']).toEqual([section('*Citations lost*')]);
    expect(call?.args).not.toHaveProperty('token');
  });

  it('issues increasing ts values even within one clock tick', async () => {
    const a = await f.client.chat.postMessage({ channel: 'C0ALERTS', text: 'a' });
    const b = await f.client.chat.postMessage({ channel: 'C0ALERTS', text: 'b' });
    expect(b.ts! > a.ts!).toBe(true);
  });

  it('resolves #name and keeps thread replies', async () => {
    const parent = await f.client.chat.postMessage({ channel: '#alerts', text: 'parent' });
    await f.client.chat.postMessage({ channel: 'C0ALERTS', text: 'reply', thread_ts: parent.ts! });
    expect(f.slack.messages('C0ALERTS').map((m) => [m.text, m.thread_ts])).toEqual([
      ['parent', undefined],
      ['reply', parent.ts],
    ]);
  });

  it.each([
    ['channel_not_found', () => f.slack.setChannelState('C0ALERTS', { exists: false })],
    ['is_archived', () => f.slack.setChannelState('C0ALERTS', { isArchived: true })],
    ['not_in_channel', () => f.slack.setChannelState('C0ALERTS', { isMember: false })],
  ])('answers %s', async (expected, arrange) => {
    arrange();
    const { error } = await platformError(f.client.chat.postMessage({ channel: 'C0ALERTS', text: 'x' }));
    expect(error).toBe(expected);
    expect(f.slack.messages('C0ALERTS')).toEqual([]);
  });

  it('answers channel_not_found for a channel it never heard of, and no_text for an empty message', async () => {
    expect((await platformError(f.client.chat.postMessage({ channel: 'C0NOPE', text: 'x' }))).error).toBe(
      'channel_not_found',
    );
    expect((await platformError(f.client.chat.postMessage({ channel: 'C0ALERTS', text: '' }))).error).toBe(
      'no_text',
    );
  });

  it('answers msg_too_long above 40,000 characters of text', async () => {
    const ok = await platformError(
      f.client.chat.postMessage({ channel: 'C0ALERTS', text: 'x'.repeat(40_000) }),
    );
    expect(ok.error).toBe('ok');
    const { error } = await platformError(
      f.client.chat.postMessage({ channel: 'C0ALERTS', text: 'x'.repeat(40_001) }),
    );
    expect(error).toBe('msg_too_long');
  });

  it('answers invalid_metadata_format for metadata without event_type', async () => {
    const { error } = await platformError(
      f.client.apiCall('chat.postMessage', {
        channel: 'C0ALERTS',
        text: 'x',
        metadata: { event_payload: {} },
      }),
    );
    expect(error).toBe('invalid_metadata_format');
  });

  it('posts to a user id as a DM with the bot', async () => {
    const res = await f.client.chat.postMessage({ channel: f.slack.defaultUserId, text: 'psst' });
    expect(res.channel).toMatch(/^D/);
    expect(f.slack.messages(res.channel!).map((m) => m.text)).toEqual(['psst']);
  });
});

describe('chat.postEphemeral, chat.update, chat.delete', () => {
  it('keeps ephemeral messages out of the channel and returns message_ts', async () => {
    const res = await f.client.chat.postEphemeral({
      channel: 'C0ALERTS',
      user: f.slack.defaultUserId,
      text: 'only you',
    });
    expect(res.message_ts).toMatch(/^\d+\.\d{6}$/);
    expect(f.slack.messages('C0ALERTS')).toEqual([]);
    expect(f.slack.ephemeralMessages(f.slack.defaultUserId).map((m) => m.text)).toEqual(['only you']);
    expect(
      (await platformError(f.client.chat.postEphemeral({ channel: 'C0ALERTS', user: 'U0NOBODY', text: 'x' })))
        .error,
    ).toBe('user_not_found');
  });

  it('updates text, blocks and metadata in place, and deletes', async () => {
    const posted = await f.client.chat.postMessage({ channel: 'C0ALERTS', text: 'v1' });
    const updated = await f.client.chat.update({
      channel: 'C0ALERTS',
      ts: posted.ts!,
      text: 'v2',
      blocks: [section('v2')],
      metadata: { event_type: 'x', event_payload: { n: 2 } },
    });
    expect(updated).toMatchObject({ ok: true, ts: posted.ts, text: 'v2' });
    const [stored] = f.slack.messages('C0ALERTS');
    expect(stored).toMatchObject({ text: 'v2', metadata: { event_type: 'x', event_payload: { n: 2 } } });
    expect(stored?.edited).toBeDefined();
    await f.client.chat.delete({ channel: 'C0ALERTS', ts: posted.ts! });
    expect(f.slack.messages('C0ALERTS')).toEqual([]);
    expect((await platformError(f.client.chat.delete({ channel: 'C0ALERTS', ts: posted.ts! }))).error).toBe(
      'message_not_found',
    );
    expect(
      (await platformError(f.client.chat.update({ channel: 'C0ALERTS', ts: posted.ts!, text: 'x' }))).error,
    ).toBe('message_not_found');
  });

  it('gives permalinks', async () => {
    const posted = await f.client.chat.postMessage({ channel: 'C0ALERTS', text: 'link me' });
    const res = await f.client.chat.getPermalink({ channel: 'C0ALERTS', message_ts: posted.ts! });
    expect(res.permalink).toContain(`/archives/C0ALERTS/p${posted.ts!.replace('.', '')}`);
  });
});

describe('conversations', () => {
  it('conversations.info reports membership and archival', async () => {
    f.slack.setChannelState('C0ALERTS', { isMember: false, isArchived: true });
    const res = await f.client.conversations.info({ channel: 'C0ALERTS' });
    expect(res.channel).toMatchObject({
      id: 'C0ALERTS',
      name: 'alerts',
      is_member: false,
      is_archived: true,
    });
    f.slack.setChannelState('C0ALERTS', { exists: false });
    expect((await platformError(f.client.conversations.info({ channel: 'C0ALERTS' }))).error).toBe(
      'channel_not_found',
    );
  });

  it('conversations.join makes the bot a member', async () => {
    f.slack.setChannelState('C0ALERTS', { isMember: false });
    await f.client.conversations.join({ channel: 'C0ALERTS' });
    expect((await f.client.chat.postMessage({ channel: 'C0ALERTS', text: 'in' })).ok).toBe(true);
  });

  it('conversations.history: newest first, metadata only with include_all_metadata', async () => {
    const metadata = { event_type: 'visibility_alert', event_payload: { idempotency_key: 'k-1' } };
    await f.client.chat.postMessage({ channel: 'C0ALERTS', text: 'first', metadata });
    await f.client.chat.postMessage({ channel: 'C0ALERTS', text: 'second' });
    const plain = await f.client.conversations.history({ channel: 'C0ALERTS' });
    expect(plain.messages?.map((m) => m.text)).toEqual(['second', 'first']);
    expect(plain.messages?.some((m) => 'metadata' in m)).toBe(false);
    const withMeta = await f.client.conversations.history({
      channel: 'C0ALERTS',
      include_all_metadata: true,
    });
    expect(withMeta.messages?.[1]?.metadata).toEqual(metadata);
    expect(withMeta.messages?.[0]).not.toHaveProperty('metadata');
  });

  it('conversations.history pages with cursors and honours oldest / latest', async () => {
    const ts: string[] = [];
    for (let i = 0; i < 5; i++) {
      ts.push((await f.client.chat.postMessage({ channel: 'C0ALERTS', text: `m${i}` })).ts!);
      f.clock.advance(1000);
    }
    const page1 = await f.client.conversations.history({ channel: 'C0ALERTS', limit: 2 });
    expect(page1.messages?.map((m) => m.text)).toEqual(['m4', 'm3']);
    expect(page1.has_more).toBe(true);
    const page2 = await f.client.conversations.history({
      channel: 'C0ALERTS',
      limit: 2,
      cursor: page1.response_metadata!.next_cursor!,
    });
    expect(page2.messages?.map((m) => m.text)).toEqual(['m2', 'm1']);
    const page3 = await f.client.conversations.history({
      channel: 'C0ALERTS',
      limit: 2,
      cursor: page2.response_metadata!.next_cursor!,
    });
    expect(page3.messages?.map((m) => m.text)).toEqual(['m0']);
    expect(page3.has_more).toBe(false);
    expect(page3.response_metadata?.next_cursor).toBe('');

    const window = await f.client.conversations.history({
      channel: 'C0ALERTS',
      oldest: ts[1]!,
      latest: ts[4]!,
    });
    expect(window.messages?.map((m) => m.text)).toEqual(['m3', 'm2']);
    const inclusive = await f.client.conversations.history({
      channel: 'C0ALERTS',
      oldest: ts[1]!,
      latest: ts[4]!,
      inclusive: true,
    });
    expect(inclusive.messages?.map((m) => m.text)).toEqual(['m4', 'm3', 'm2', 'm1']);
  });

  it('conversations.history leaves thread replies out unless broadcast, and needs membership', async () => {
    const parent = await f.client.chat.postMessage({ channel: 'C0ALERTS', text: 'parent' });
    await f.client.chat.postMessage({ channel: 'C0ALERTS', text: 'quiet', thread_ts: parent.ts! });
    await f.client.chat.postMessage({
      channel: 'C0ALERTS',
      text: 'loud',
      thread_ts: parent.ts!,
      reply_broadcast: true,
    });
    const res = await f.client.conversations.history({ channel: 'C0ALERTS' });
    expect(res.messages?.map((m) => m.text)).toEqual(['loud', 'parent']);
    const thread = await f.client.conversations.replies({ channel: 'C0ALERTS', ts: parent.ts! });
    expect(thread.messages?.map((m) => m.text)).toEqual(['parent', 'quiet', 'loud']);
    f.slack.setChannelState('C0ALERTS', { isMember: false });
    expect((await platformError(f.client.conversations.history({ channel: 'C0ALERTS' }))).error).toBe(
      'not_in_channel',
    );
  });
});

describe('users.info', () => {
  it('returns restriction flags, admin and time zone with its offset', async () => {
    f.slack.addUser({
      id: 'U0GUEST',
      name: 'guest',
      isRestricted: true,
      isUltraRestricted: true,
      tz: 'Asia/Tokyo',
    });
    const res = await f.client.users.info({ user: 'U0GUEST' });
    expect(res.user).toMatchObject({
      id: 'U0GUEST',
      is_restricted: true,
      is_ultra_restricted: true,
      is_admin: false,
      tz: 'Asia/Tokyo',
      tz_offset: 9 * 3600,
    });
    expect((await platformError(f.client.users.info({ user: 'U0NOBODY' }))).error).toBe('user_not_found');
  });
});

describe('views', () => {
  const modal = (title = 'Subscribe', blocks: unknown[] = [section('Pick a brand')]) => ({
    type: 'modal' as const,
    callback_id: 'subscribe',
    title: { type: 'plain_text' as const, text: title },
    blocks: blocks as never,
  });

  /** A trigger_id only comes from an interaction: take the one the driver sends with a command. */
  async function freshTrigger(): Promise<string> {
    const app = await startAckServer();
    await f.slack.slashCommand(app.url, { text: 'subscribe' });
    await app.close();
    return new URLSearchParams(app.requests[0]?.body).get('trigger_id') ?? '';
  }

  it('views.open needs a live trigger_id and stores the modal', async () => {
    expect((await platformError(f.client.views.open({ trigger_id: '', view: modal() }))).error).toBe(
      'invalid_arguments',
    );
    expect((await platformError(f.client.views.open({ trigger_id: '1.2.abc', view: modal() }))).error).toBe(
      'invalid_trigger_id',
    );
    const trigger = await freshTrigger();
    const res = await f.client.views.open({ trigger_id: trigger, view: modal() });
    expect(res.view).toMatchObject({ callback_id: 'subscribe', type: 'modal' });
    expect(f.slack.view(res.view!.id!)?.blocks).toEqual([section('Pick a brand')]);
    f.clock.advance(3001);
    expect((await platformError(f.client.views.open({ trigger_id: trigger, view: modal() }))).error).toBe(
      'expired_trigger_id',
    );
  });

  it('views.push stacks, views.update replaces by view_id or external_id and checks hash', async () => {
    const trigger = await freshTrigger();
    const opened = await f.client.views.open({
      trigger_id: trigger,
      view: { ...modal(), external_id: 'ext-1' },
    });
    const pushed = await f.client.views.push({ trigger_id: trigger, view: modal('Step 2') });
    expect(pushed.view?.previous_view_id).toBe(opened.view?.id);
    const byId = await f.client.views.update({ view_id: opened.view!.id!, view: modal('Updated') });
    expect(byId.view?.title).toMatchObject({ text: 'Updated' });
    const byExternal = await f.client.views.update({ external_id: 'ext-1', view: modal('Again') });
    expect(byExternal.view?.id).toBe(opened.view?.id);
    expect(
      (
        await platformError(
          f.client.views.update({ view_id: opened.view!.id!, hash: 'stale', view: modal() }),
        )
      ).error,
    ).toBe('hash_conflict');
    expect((await platformError(f.client.views.update({ view_id: 'V0NOPE', view: modal() }))).error).toBe(
      'not_found',
    );
  });

  it('views.publish stores the Home view per user', async () => {
    const home = { type: 'home' as const, blocks: [section('Your brands')] as never };
    const res = await f.client.views.publish({ user_id: f.slack.defaultUserId, view: home });
    expect(res.view?.type).toBe('home');
    expect(f.slack.homeView(f.slack.defaultUserId)?.blocks).toEqual([section('Your brands')]);
    await f.client.views.publish({
      user_id: f.slack.defaultUserId,
      view: { ...home, blocks: [section('v2')] as never },
    });
    expect(f.slack.homeView(f.slack.defaultUserId)?.id).toBe(res.view?.id);
    expect(f.slack.homeView(f.slack.defaultUserId)?.blocks).toEqual([section('v2')]);
    expect((await platformError(f.client.views.publish({ user_id: '', view: home }))).error).toBe(
      'invalid_arguments',
    );
  });

  it('rejects a modal title over 24 characters', async () => {
    const trigger = await freshTrigger();
    const { error, data } = await platformError(
      f.client.views.open({ trigger_id: trigger, view: modal('x'.repeat(25)) }),
    );
    expect(error).toBe('invalid_arguments');
    expect(data['errors']).toEqual(['must be less than 25 characters [json-pointer:/view/title/text]']);
  });
});

describe('faults', () => {
  it('rate limits with HTTP 429 and Retry-After; WebClient with rejectRateLimitedCalls gets a rate-limited error', async () => {
    f.slack.rateLimit('chat.postMessage', { count: 1, retryAfterSec: 7 });
    const strict = new WebClient(f.slack.botToken, {
      slackApiUrl: f.slack.url,
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
      logger: quietLogger,
    });
    const err = await strict.chat.postMessage({ channel: 'C0ALERTS', text: 'x' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: ErrorCode.RateLimitedError, retryAfter: 7 });
    const [call] = f.slack.callsTo('chat.postMessage');
    expect(call).toMatchObject({ status: 429, response: { ok: false, error: 'ratelimited' } });
    expect(f.slack.messages('C0ALERTS')).toEqual([]);
    // Only `count` calls are limited.
    expect((await strict.chat.postMessage({ channel: 'C0ALERTS', text: 'y' })).ok).toBe(true);
  });

  it('shows the raw 429 and Retry-After header on the wire', async () => {
    f.slack.rateLimit('*', { count: 1, retryAfterSec: 3 });
    const res = await fetch(`${f.slack.url}auth.test`, {
      method: 'POST',
      headers: { authorization: `Bearer ${f.slack.botToken}` },
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('3');
    expect(await res.json()).toEqual({ ok: false, error: 'ratelimited' });
  });

  it('failNext answers 200 {ok:false,error} the next count calls', async () => {
    f.slack.failNext('chat.postMessage', 'fatal_error', 2);
    expect((await platformError(f.client.chat.postMessage({ channel: 'C0ALERTS', text: 'a' }))).error).toBe(
      'fatal_error',
    );
    expect((await platformError(f.client.chat.postMessage({ channel: 'C0ALERTS', text: 'b' }))).error).toBe(
      'fatal_error',
    );
    expect((await platformError(f.client.chat.postMessage({ channel: 'C0ALERTS', text: 'c' }))).error).toBe(
      'ok',
    );
    expect(f.slack.messages('C0ALERTS').map((m) => m.text)).toEqual(['c']);
  });

  it('failAfterAccept stores the message and drops the connection', async () => {
    f.slack.failAfterAccept('chat.postMessage');
    const err = await f.client.chat
      .postMessage({
        channel: 'C0ALERTS',
        text: 'sent once',
        metadata: { event_type: 'k', event_payload: { id: 1 } },
      })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: ErrorCode.RequestError });
    // Slack has the message: the bot's effectively-once check finds it in history.
    const history = await f.client.conversations.history({ channel: 'C0ALERTS', include_all_metadata: true });
    expect(history.messages?.map((m) => [m.text, m.metadata?.event_payload])).toEqual([
      ['sent once', { id: 1 }],
    ]);
    expect(f.slack.callsTo('chat.postMessage')[0]).toMatchObject({ dropped: true, response: { ok: true } });
  });

  it('reset forgets calls, messages and faults and restores default channels', async () => {
    await f.client.chat.postMessage({ channel: 'C0ALERTS', text: 'x' });
    f.slack.failNext('auth.test', 'fatal_error');
    f.slack.reset();
    expect(f.slack.calls).toEqual([]);
    expect((await f.client.auth.test()).ok).toBe(true);
    expect((await platformError(f.client.chat.postMessage({ channel: 'C0ALERTS', text: 'x' }))).error).toBe(
      'channel_not_found',
    );
    expect((await f.client.chat.postMessage({ channel: f.slack.defaultChannelId, text: 'x' })).ok).toBe(true);
  });
});
