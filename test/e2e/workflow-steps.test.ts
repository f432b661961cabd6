/**
 * The three Workflow Builder steps end to end: the local Slack runs each as Workflow
 * Builder does (a signed function_executed event with the run's own token), the real
 * service answers through Bolt's app.function, and the run ends in
 * functions.completeSuccess (outputs checked against the manifest's definitions) or
 * functions.completeError with a sentence for the workflow's author: an unknown brand, a
 * guest, a bad input, the bot missing from the channel, the API failing or refusing the
 * key. The figures are checked against what the simulator itself answers.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FunctionExecution } from '../../src/dev/local-slack/index.js';
import { SEED_BRANDS } from '../../src/dev/simulator/index.js';
import { type Harness, startHarness } from './service-harness.js';
import { FUNCTIONS } from './workflow-step-functions.js';

const acme = SEED_BRANDS.acme;
const GUEST = 'U0GUEST07';
let h: Harness;

beforeAll(async () => {
  h = await startHarness({ slack: { functions: FUNCTIONS } });
});
afterAll(async () => {
  await h?.close();
});
beforeEach(() => {
  h.slack.reset();
  h.sim.control.reset();
  h.slack.addUser({ id: GUEST, name: 'guest', isRestricted: true });
});

/** Runs a step and waits for it to end. */
async function run(callbackId: string, inputs: Record<string, unknown>): Promise<FunctionExecution> {
  const res = await h.slack.executeFunction(h.appUrl, { callbackId, inputs });
  expect(res.status).toBe(200);
  return h.slack.waitFor(() => {
    const done = h.slack.functionExecutions().find((e) => e.id === res.execution.id);
    return done && done.state !== 'running' ? done : undefined;
  }, 15_000);
}

/** What the simulator answers, asked directly with the API key (not through the bot's client). */
async function simGet<T>(path: string, query: Record<string, string>): Promise<T> {
  const url = new URL(`${h.sim.url}${path}`);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const res = await fetch(url, { headers: { authorization: `Bearer ${h.sim.apiKey}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

describe('Get brand visibility', () => {
  it('completes with the brand’s figures, each as the simulator counts it', async () => {
    const done = await run('get_brand_visibility', { brand: 'acme analytics', user: h.slack.defaultUserId });
    expect(done.state, done.error).toBe('completed');
    const list = await simGet<{ pagination: { total: number } }>('/get-citations', {
      brand_id: acme.id,
      limit: '1',
    });
    const history = await simGet<{
      brand_time_series: Array<{ date: string; total_citations: number; brand_mentions: number }>;
    }>('/get-citations', { brand_id: acme.id, view: 'history', days: '7' });
    const latest = history.brand_time_series.at(-1)!;
    const ai = await simGet<{ usage: { percentage_used: number } }>('/ai-pages', { brand_id: acme.id });
    expect(done.outputs).toMatchObject({
      brand_name: acme.name,
      cited_pages: list.pagination.total,
      citations: latest.total_citations,
      brand_mentions: latest.brand_mentions,
      ai_pages_used_percent: Math.floor(ai.usage.percentage_used),
    });
    expect(done.outputs!['ai_crawler_visits']).toBeGreaterThan(0);
    const summary = String(done.outputs!['summary']);
    expect(summary).toContain(`${acme.name}: `);
    expect(summary).toContain('AI crawler visits in the last 7 days');
    // The step's own calls and Bolt's completion went through the run's token.
    const completion = h.slack.callsTo('functions.completeSuccess')[0]!;
    expect(completion.token).toBe(done.botAccessToken);
  });

  it('fails with a sentence naming the brand it cannot find', async () => {
    const done = await run('get_brand_visibility', { brand: 'Nonexistent Brand Co' });
    expect(done.state).toBe('failed');
    expect(done.error).toMatch(/^“Get brand visibility” could not finish: /);
    expect(done.error).toContain('Nonexistent Brand Co');
    expect(done.error).not.toMatch(/[*`]|<[@#!]/);
  });

  it('refuses a guest, as /visibility does', async () => {
    const done = await run('get_brand_visibility', { brand: acme.name, user: GUEST });
    expect(done.state).toBe('failed');
    expect(done.error).toContain('guest accounts cannot use');
    expect(h.sim.requests.filter((r) => r.path === '/get-citations')).toEqual([]);
  });

  it('says the service is not answering when the API keeps failing', async () => {
    h.sim.control.injectFault({ kind: 'status', status: 503, path: '/get-citations', count: 20 });
    const done = await run('get_brand_visibility', { brand: acme.name });
    expect(done.state).toBe('failed');
    expect(done.error).toBe(
      '“Get brand visibility” could not finish: The Brand Visibility service is not answering, try again in a minute.',
    );
  });

  it('says the API key was rejected when the service refuses it', async () => {
    h.sim.control.injectFault({ kind: 'status', status: 401, count: 20 });
    const done = await run('get_brand_visibility', { brand: acme.name });
    expect(done.state).toBe('failed');
    expect(done.error).toContain('The API key was rejected by the Brand Visibility service');
  });
});

describe('List lost citations', () => {
  it('completes with the lost pages’ addresses and titles, in the same order', async () => {
    const feed = await simGet<{ events: Array<{ event_type: string; url: string; h1?: string | null }> }>(
      '/get-citations',
      { brand_id: acme.id, view: 'feed', days_back: '30' },
    );
    const lost = new Set(feed.events.filter((e) => e.event_type === 'lost').map((e) => e.url));
    const done = await run('list_lost_citations', { brand: acme.name, days: 30 });
    expect(done.state, done.error).toBe('completed');
    const urls = done.outputs!['urls'] as string[];
    const titles = done.outputs!['titles'] as string[];
    expect(done.outputs!['lost_count']).toBe(lost.size);
    expect(new Set(urls)).toEqual(new Set([...lost].map((u) => u.replace(/&/g, '&amp;'))));
    expect(titles).toHaveLength(urls.length);
    const summary = String(done.outputs!['summary']);
    expect(summary.split('\n')[0]).toBe(
      lost.size === 0
        ? `${acme.name} lost no cited pages in the last 30 days.`
        : `${acme.name} lost ${lost.size} cited page${lost.size === 1 ? '' : 's'} in the last 30 days:`,
    );
    const feedRequest = h.sim.requests.find((r) => r.query['view'] === 'feed');
    expect(feedRequest?.query['days_back']).toBe('30');
  });

  it('fails with a sentence when the number of days is out of range', async () => {
    const done = await run('list_lost_citations', { brand: acme.name, days: 99 });
    expect(done.state).toBe('failed');
    expect(done.error).toBe(
      '“List lost citations” could not finish: “Days” must be a whole number from 1 to 30, not “99”.',
    );
  });
});

describe('Post the digest now', () => {
  it('posts the brand’s digest in the channel and hands back a link to it', async () => {
    const channel = h.slack.defaultChannelId;
    const done = await run('post_digest_now', { brand: acme.name, channel, user: h.slack.defaultUserId });
    expect(done.state, done.error).toBe('completed');
    const posted = h.slack.messages(channel).at(-1)!;
    expect(posted.text).toContain(acme.name);
    expect(JSON.stringify(posted.blocks)).toContain('daily digest');
    expect(posted.metadata?.event_payload['dedupe_key']).toBe(`workflow:${done.id}`);
    expect(String(done.outputs!['message_link'])).toContain(posted.ts.replace('.', ''));
  });

  it('fails with what to do when the bot is not in the channel', async () => {
    h.slack.addChannel({ id: 'C0ELSEWHR1', name: 'elsewhere', isMember: false });
    const done = await run('post_digest_now', { brand: acme.name, channel: 'C0ELSEWHR1' });
    expect(done.state).toBe('failed');
    expect(done.error).toContain(
      'the bot is not in <#C0ELSEWHR1>. Invite it there with “/invite @visibility-bot”',
    );
    expect(h.slack.messages('C0ELSEWHR1')).toEqual([]);
  });

  it('fails when no channel was given', async () => {
    const done = await run('post_digest_now', { brand: acme.name });
    expect(done.state).toBe('failed');
    expect(done.error).toBe('“Post the digest now” could not finish: the step needs a value for “Channel”.');
  });
});
