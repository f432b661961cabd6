/**
 * Delivery of alerts through the outbox, end to end: Slack's rate limit, a channel that is
 * gone, blocks Slack refuses, and alerts held by quiet hours or a mute then delivered once,
 * grouped. Each test subscribes a fresh channel to Acme Analytics, whose AI Pages usage is
 * over 80 %: a level, so every new subscription alerts on its first run.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { acme, HOUR_MS, isChannelNoteCall, messageText, useAlertsHarness } from './alerts-harness.js';

const h = useAlertsHarness();

beforeAll(async () => {
  h.sim.control.setAiPagesUsage(acme.id, { percentageUsed: 85, resetDate: '2031-01-01T00:00:00Z' });
});

/** The alert posts to `channel`: the notes saying who subscribed or muted are not alerts. */
const postsTo = (channel: string) =>
  h.slack
    .callsTo('chat.postMessage')
    .filter((c) => c.args['channel'] === channel && !isChannelNoteCall(c.args));

describe('Slack answers', () => {
  it('waits out rate_limited and delivers once after Retry-After', async () => {
    const ch = h.channel('CRATE');
    await h.command('subscribe "Acme Analytics" alerts', ch);
    h.slack.rateLimit('chat.postMessage', { count: 1, retryAfterSec: 1 });
    await h.runJobs('ai-pages');
    const calls = postsTo(ch);
    expect(calls.map((c) => c.status)).toEqual([429, 200]);
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(1000);
    expect(h.posts(ch)).toHaveLength(1);
  });

  it('pauses the subscription on channel_not_found, shows why, and stops trying', async () => {
    const ch = h.channel('CGONE');
    await h.command('subscribe "Acme Analytics" alerts', ch);
    h.slack.setChannelState(ch, { exists: false });
    await h.runJobs('ai-pages');
    expect(postsTo(ch).map((c) => c.response['error'])).toEqual(['channel_not_found']);

    const list = await h.command('subscriptions', ch);
    expect(list.text).toContain('paused');
    expect(JSON.stringify(list.blocks)).toContain('Slack cannot find this channel');

    // A new level next period: nothing is even tried in the paused channel.
    h.sim.control.setAiPagesUsage(acme.id, { percentageUsed: 95, resetDate: '2031-02-01T00:00:00Z' });
    await h.runJobs('ai-pages');
    await h.runJobs('ai-pages');
    expect(postsTo(ch)).toHaveLength(1);
  });

  it('sends the plain-text fallback when Slack refuses the blocks', async () => {
    const ch = h.channel('CBLOCKS');
    await h.command('subscribe "Acme Analytics" alerts', ch);
    h.slack.failNext('chat.postMessage', 'invalid_blocks');
    await h.runJobs('ai-pages');
    const posts = h.posts(ch);
    expect(posts).toHaveLength(1);
    expect(posts[0]!.blocks ?? []).toEqual([]);
    expect(posts[0]!.text).toContain('Acme Analytics');
    expect(posts[0]!.text).toContain('AI Pages');
  });
});

describe('held alerts', () => {
  const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);

  /** An AI Pages level and a lost citation: two runs, two alert messages for one brand. */
  async function twoAlertRuns(lostIndex: number) {
    await h.runJobs('ai-pages');
    h.advanceSnapshot({ lose: [h.sim.control.citationUrls(acme.id)[lostIndex]!] });
    await h.runJobs('citations');
  }

  it('holds alerts during quiet hours and delivers them once, grouped, when they end', async () => {
    const ch = h.channel('CQUIET');
    await h.command('subscribe "Acme Analytics" alerts', ch);
    const now = h.botClock.now();
    await h.command(
      `settings "Acme Analytics" tz=UTC quiet=${hhmm(now - HOUR_MS)}-${hhmm(now + HOUR_MS)}`,
      ch,
    );
    await twoAlertRuns(3);
    expect(h.posts(ch)).toEqual([]);
    const list = await h.command('subscriptions', ch);
    expect(JSON.stringify(list.blocks)).toContain('2 alert messages held');

    h.botClock.advance(HOUR_MS + 2 * 60_000);
    await h.runJobs('ai-pages');
    await h.runJobs('ai-pages');
    const posts = h.posts(ch);
    expect(posts).toHaveLength(1);
    const text = messageText(posts[0]!);
    expect(text).toContain('held during quiet hours or a mute');
    expect(text).toContain('AI Pages usage passed');
    expect(text).toContain('Cited page lost');
  });

  it('holds alerts while muted, shows the mute, and delivers them grouped when it ends', async () => {
    const ch = h.channel('CMUTE');
    await h.command('subscribe "Acme Analytics" alerts', ch);
    const muted = await h.command('mute "Acme Analytics" 2h', ch);
    expect(muted.text).toContain('muted for 2 h');
    await twoAlertRuns(4);
    expect(h.posts(ch)).toEqual([]);
    expect(JSON.stringify((await h.command('subscriptions', ch)).blocks)).toContain('Muted');

    h.botClock.advance(2 * HOUR_MS + 60_000);
    await h.runJobs('ai-pages');
    expect(h.posts(ch)).toHaveLength(1);
    expect(messageText(h.posts(ch)[0]!)).toContain('2 alerts held');
  });

  it('unmute releases the held alerts at once', async () => {
    const ch = h.channel('CUNMUTE');
    await h.command('subscribe "Acme Analytics" alerts', ch);
    await h.command('mute "Acme Analytics" 1d', ch);
    await twoAlertRuns(6);
    expect(h.posts(ch)).toEqual([]);
    const reply = await h.command('unmute "Acme Analytics"', ch);
    expect(reply.text).toContain('The 2 held alert messages are being posted now, together.');
    // This harness runs no relay loop: the next run's delivery posts them, grouped, once.
    await h.runJobs('ai-pages');
    expect(h.posts(ch)).toHaveLength(1);
    expect((await h.deps.auditLog.recent(5)).map((e) => e.action)).toEqual(
      expect.arrayContaining(['mute alerts', 'unmute alerts']),
    );
  });
});
