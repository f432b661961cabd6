/**
 * Citation alerts end to end: subscribe in a channel (baseline taken silently), the
 * simulator's next daily snapshot loses a URL, the citations job (in process and as the
 * real `run-job` process) posts exactly one alert naming it, and nothing repeats.
 */

import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sqliteDbOf } from '../store/temp-db.js';
import { acme, messageText, northwind, useAlertsHarness } from './alerts-harness.js';

const h = useAlertsHarness();
let urls: string[];
let channel = 0;
/** A fresh channel per test, so each test sees only its own posts. */
const newChannel = () => {
  channel += 1;
  return h.channel(`CCIT${channel}`);
};

beforeAll(async () => {
  urls = h.sim.control.citationUrls(acme.id);
});
beforeEach(() => {
  h.slack.calls.length = 0;
});

const feedRequests = () =>
  h.sim.requests.filter((r) => r.path === '/get-citations' && r.query['view'] === 'feed');

describe('subscribe', () => {
  it('refuses a channel the bot is not in and says how to invite it', async () => {
    h.slack.addChannel({ id: 'CNOTIN', name: 'not-in', isMember: false });
    const reply = await h.command('subscribe "Acme Analytics"', 'CNOTIN');
    expect(reply.text).toContain('/invite @visibility-bot');
    expect(
      sqliteDbOf(h.deps.store)
        .prepare('SELECT COUNT(*) AS n FROM subscriptions WHERE channel_id = ?')
        .get('CNOTIN'),
    ).toEqual({
      n: 0,
    });
  });

  it('takes the citation baseline silently and records who subscribed', async () => {
    const ch = newChannel();
    const before = feedRequests().length;
    const reply = await h.command('subscribe "Northwind Outfitters"', ch);
    expect(reply.text).toContain('now subscribed to *Northwind Outfitters*');
    const baseline = feedRequests().slice(before);
    expect(baseline).toHaveLength(1);
    expect(baseline[0]!.query).toMatchObject({ brand_id: northwind.id, view: 'feed', days_back: '30' });
    const audit = (await h.deps.auditLog.recent(1))[0]!;
    expect(audit).toMatchObject({ channelId: ch, brandId: northwind.id, result: 'ok' });
    expect(audit.action).toContain('subscribe');
    await h.runJobs('citations');
    expect(h.posts(ch)).toEqual([]);
  });
});

describe('citations job', () => {
  it('alerts once per lost URL, never again for the same loss, and again after found-and-lost', async () => {
    const ch = newChannel();
    await h.command('subscribe "Acme Analytics" alerts', ch);
    const [first, second] = [urls[0]!, urls[1]!];

    h.advanceSnapshot({ lose: [first] });
    const run = await h.runJobs('citations');
    expect(run.jobs[0]).toMatchObject({ job: 'citations', status: 'ok' });
    expect(h.posts(ch)).toHaveLength(1);
    expect(messageText(h.posts(ch)[0]!)).toContain(first);
    // The feed asked for covers the time since the last success: one day at least.
    expect(feedRequests().at(-1)!.query).toMatchObject({ brand_id: acme.id, days_back: '1' });

    await h.runJobs('citations');
    expect(h.posts(ch)).toHaveLength(1);

    h.advanceSnapshot({ lose: [second] });
    await h.runJobs('citations');
    expect(h.posts(ch)).toHaveLength(2);
    const latest = messageText(h.posts(ch)[1]!);
    expect(latest).toContain(second);
    expect(latest).not.toContain(first);

    h.advanceSnapshot({ add: [first] });
    await h.runJobs('citations');
    expect(h.posts(ch)).toHaveLength(2);
    h.advanceSnapshot({ lose: [first] });
    await h.runJobs('citations');
    expect(h.posts(ch)).toHaveLength(3);
    expect(messageText(h.posts(ch)[2]!)).toContain(first);
    // Each post carries its dedupe key in metadata (effectively-once delivery).
    expect(h.posts(ch).every((m) => m.metadata?.event_payload['key'])).toBe(true);
  });

  it('posts through the real run-job process, once, and the second run posts nothing', async () => {
    const ch = newChannel();
    await h.command('subscribe "Acme Analytics"', ch);
    const lost = urls[5]!;
    h.advanceSnapshot({ lose: [lost] });
    const r1 = await h.runJobProcess('citations');
    expect(r1.stderr).toBe('');
    expect(r1.code).toBe(0);
    expect(r1.stdout).toMatch(/^citations: \d+ brands?, \d+ alerts? in \d+ messages? \(/m);
    expect(r1.stdout).toMatch(/^delivery: \d+ sent/m);
    const posts = h.posts(ch);
    expect(posts).toHaveLength(1);
    expect(messageText(posts[0]!)).toContain(lost);

    const r2 = await h.runJobProcess('citations');
    expect(r2.code).toBe(0);
    expect(h.posts(ch)).toHaveLength(1);
  });

  it('does not swallow a change another channel has not heard of when a new channel subscribes', async () => {
    const watching = newChannel();
    await h.command('subscribe "Northwind Outfitters" alerts', watching);
    const lost = h.sim.control.citationUrls(northwind.id)[0]!;
    h.advanceSnapshot({ brandId: northwind.id, lose: [lost] });
    const newcomer = newChannel();
    await h.command('subscribe "Northwind Outfitters" alerts', newcomer);
    await h.runJobs('citations');
    expect(
      h
        .posts(watching)
        .map(messageText)
        .filter((t) => t.includes(lost)),
    ).toHaveLength(1);
    expect(h.posts(newcomer)).toEqual([]);
  });
});
