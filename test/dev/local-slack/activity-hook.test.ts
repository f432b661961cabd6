/**
 * The local Slack tells observers (the demo console) about each Web API call and each
 * response_url post right after it took effect, in order; a failing observer changes
 * nothing the app sees; unsubscribing stops the reports. Names for mention renderers come
 * from the workspace.
 */
import { describe, expect, it } from 'vitest';
import type { SlackActivity } from '../../../src/dev/local-slack/index.js';
import { useAckServer, useFixture } from './local-slack-fixture.js';

const f = useFixture();
const app = useAckServer();

const describeActivity = (a: SlackActivity) =>
  a.kind === 'call' ? `call ${a.call.method}` : `response ${a.post.status} ${JSON.stringify(a.post.body)}`;

describe('onActivity', () => {
  it('reports calls and response_url posts as they land, after they took effect', async () => {
    const seen: string[] = [];
    const channelAtReport: number[] = [];
    const off = f.slack.onActivity((a) => {
      seen.push(describeActivity(a));
      channelAtReport.push(f.slack.messages(f.slack.defaultChannelId).length);
    });
    await f.client.chat.postMessage({ channel: f.slack.defaultChannelId, text: 'alert' });
    const { responseUrlId } = await f.slack.slashCommand(app.url, { text: 'brands' });
    const url = new URLSearchParams(app.requests.at(-1)?.body).get('response_url')!;
    await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'later', response_type: 'in_channel' }),
    });
    off();
    await f.client.chat.postMessage({ channel: f.slack.defaultChannelId, text: 'unseen' });
    expect(seen).toEqual([
      'call chat.postMessage',
      'response 200 {"text":"later","response_type":"in_channel"}',
    ]);
    // The message was already in the channel when each report came.
    expect(channelAtReport).toEqual([1, 2]);
    expect(f.slack.responsesFor(responseUrlId)).toHaveLength(1);
  });

  it('ignores an observer that throws: the app still gets its answer', async () => {
    const off = f.slack.onActivity(() => {
      throw new Error('viewer broke');
    });
    const res = await f.client.chat.postMessage({ channel: f.slack.defaultChannelId, text: 'still posted' });
    off();
    expect(res.ok).toBe(true);
    expect(f.slack.messages(f.slack.defaultChannelId).map((m) => m.text)).toEqual(['still posted']);
  });
});

describe('names for renderers', () => {
  it('knows users with their zone and channels by name', () => {
    f.slack.addUser({ id: 'U0ALICE', name: 'alice', tz: 'Europe/Paris' });
    f.slack.addChannel({ id: 'C0MKT', name: 'marketing' });
    expect(f.slack.userInfo('U0ALICE')).toEqual({ name: 'alice', tz: 'Europe/Paris' });
    expect(f.slack.userInfo(f.slack.defaultUserId)?.name).toBe('local.user');
    expect(f.slack.userInfo('U0NOBODY')).toBeUndefined();
    expect(f.slack.channelName('C0MKT')).toBe('marketing');
    expect(f.slack.channelName(f.slack.defaultChannelId)).toBe('general');
    f.slack.setChannelState('C0MKT', { exists: false });
    expect(f.slack.channelName('C0MKT')).toBeUndefined();
  });
});
