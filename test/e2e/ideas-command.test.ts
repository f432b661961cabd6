/**
 * `/visibility ideas` through the local Slack, the real service and the API simulator:
 * what reached the simulator, what reached Slack, paging in place, and a refresh followed
 * to completion on the same message (a short generation, millisecond polling).
 */
import { describe, expect, it } from 'vitest';
import { SEED_BRANDS } from '../../src/dev/simulator/index.js';
import { ideaTypeName, modelName, pageTypeName } from '../../src/messages/vocabulary.js';
import { manualClock } from '../helpers/manual-clock.js';
import {
  buttons,
  buttonValue,
  type ReadHarness,
  simJson,
  useReadHarness,
  visibleText,
} from './read-commands-harness.js';

const acme = SEED_BRANDS.acme;

interface Idea {
  query: string;
  type: string;
  opportunity_score: number;
  insight: string | null;
  competitors_appearing: string[];
  ai_models: string[];
  recommended_template?: string | null;
  your_position: number | null;
  status: string;
}

/** What the simulator holds, read directly (not through the bot). */
function simIdeas(h: ReadHarness, query: string): Promise<{ ideas: Idea[]; pagination: { total: number } }> {
  return simJson(h.sim, '/get-content-ideas', {
    brand_id: acme.id,
    ...Object.fromEntries(new URLSearchParams(query)),
  });
}

describe('ideas: listing and paging', () => {
  const h = useReadHarness();

  it('asks for active ideas and shows each with score, type, query, insight, competitors, models, position', async () => {
    const { reply } = await h.command('ideas "Acme Analytics"');
    const [req] = h.requestsTo('/get-content-ideas', 'GET');
    expect(req?.query).toEqual({ brand_id: acme.id, status: 'active', limit: '10', offset: '0' });
    const expected = await simIdeas(h, 'status=active&limit=10&offset=0');
    const text = visibleText(reply);
    expect(expected.ideas.length).toBe(10);
    for (const idea of expected.ideas) {
      expect(text).toContain(idea.query);
      expect(text).toContain(`opportunity score *${idea.opportunity_score}*/100`);
      expect(text).toContain(ideaTypeName(idea.type));
      if (idea.insight) expect(text).toContain(idea.insight);
      for (const c of idea.competitors_appearing) expect(text).toContain(c);
      for (const m of idea.ai_models.slice(0, 5)) expect(text).toContain(modelName(m));
      if (idea.recommended_template)
        expect(text).toContain(`Format: ${pageTypeName(idea.recommended_template)}`);
    }
    expect(text).toContain('Your position: #');
    expect(text).toContain('Your position: not ranked');
    expect(text).not.toMatch(/google-ai-overviews|Format: \w+_\w+/);
    // ranked by opportunity score, highest first
    const positions = expected.ideas.map((i) => text.indexOf(`. ${i.query}*`));
    expect(positions.every((p) => p > 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(reply.text).toContain(`1–10 of ${expected.pagination.total}`);
    expect(reply.response_type).toBe('ephemeral');
    const share = buttons(reply).find((b) => b.action_id === 'vis:share');
    expect(share?.value).toBe(`ideas ${acme.id}`);
  });

  it('passes another status or none for `all`, and the limit', async () => {
    await h.command('ideas "Acme Analytics" all --limit 3');
    await h.command('ideas "Acme Analytics" dismissed');
    await h.command('ideas "Acme Analytics" implemented --limit 200');
    expect(h.requestsTo('/get-content-ideas', 'GET').map((r) => r.query)).toEqual([
      { brand_id: acme.id, limit: '3', offset: '0' },
      { brand_id: acme.id, status: 'dismissed', limit: '10', offset: '0' },
      { brand_id: acme.id, status: 'implemented', limit: '200', offset: '0' },
    ]);
  });

  it('refuses a limit outside 1–200 with the bounds, before any request', async () => {
    for (const bad of ['0', '201', 'ten', '-5']) {
      const { reply } = await h.command(`ideas "Acme Analytics" --limit ${bad}`);
      expect(reply.text).toContain('`--limit` takes a whole number from 1 to 200');
      expect(reply.text).toContain('Usage: /visibility ideas');
    }
    expect(h.sim.requests).toHaveLength(0);
  });

  it('pages with Next then Previous, replacing the same message', async () => {
    const first = await h.command('ideas "Acme Analytics"');
    expect(buttonValue(first.reply, 'vis:ideas:page:next')).toEqual({
      brandId: acme.id,
      status: 'active',
      limit: 10,
      offset: 10,
    });
    const next = await h.click(first.reply, 'vis:ideas:page:next');
    expect(next.reply.replace_original).toBe(true);
    const page2 = await simIdeas(h, 'status=active&limit=10&offset=10');
    expect(visibleText(next.reply)).toContain(page2.ideas[0]!.query);
    expect(next.reply.text).toContain('11–');
    const prev = await h.click(next.reply, 'vis:ideas:page:prev');
    expect(prev.reply.replace_original).toBe(true);
    expect(prev.reply.text).toContain('1–10 of');
    const gets = h.requestsTo('/get-content-ideas', 'GET').filter((r) => r.query['limit'] === '10');
    expect(gets.map((r) => r.query['offset'])).toEqual(['0', '10', '10', '0']);
    // One message, edited in place twice (Next, Previous).
    const mine = h.slack.ephemeralMessages(h.slack.defaultUserId);
    expect(mine).toHaveLength(1);
    expect(mine[0]?.edited).toBeDefined();
  });
});

describe('ideas refresh', () => {
  // The simulator's generation finishes when the test moves its clock, not when a real
  // timer fires: on a busy machine the second refresh could otherwise arrive after it.
  const simClock = manualClock(Date.now());
  const h = useReadHarness({
    simulator: { generationMs: 600, clock: simClock },
    refreshTiming: { pollIntervalMs: 25, timeoutMs: 10_000 },
  });

  it('reports generating, a second refresh starts nothing, and the same message shows the fresh ideas', async () => {
    const first = await h.command('ideas "Acme Analytics" refresh');
    expect(first.reply.text).toContain('Generating fresh content ideas for Acme Analytics');
    const second = await h.command('ideas "Acme Analytics" refresh');
    expect(second.reply.text).toContain('already being generated; no second job was started');

    const posts = h.requestsTo('/get-content-ideas', 'POST');
    expect(posts.map((r) => r.body)).toEqual([
      { brand_id: acme.id, action: 'refresh' },
      { brand_id: acme.id, action: 'refresh' },
    ]);

    // The first command's message is replaced when meta.generation_status leaves generating.
    expect(h.slack.responsesFor(first.responseUrlId)).toHaveLength(1);
    simClock.advance(600);
    const done = await h.slack.waitFor(() => h.slack.responsesFor(first.responseUrlId)[1], 8000);
    expect(done.status).toBe(200);
    const body = done.body as { text: string; replace_original?: boolean; blocks: unknown[] };
    expect(body.replace_original).toBe(true);
    expect(body.text).toContain('Fresh content ideas are ready');
    const fresh = await simIdeas(h, 'status=active&limit=10');
    expect(visibleText(body)).toContain(fresh.ideas[0]!.query);
    expect(JSON.stringify(body.blocks)).toContain('vis:ideas:page:next');
    // Exactly two posts on that response_url (of the five Slack allows).
    expect(h.slack.responsesFor(first.responseUrlId)).toHaveLength(2);

    // The second watcher finishes on the same completed run: no new generation began.
    await h.slack.waitFor(() => h.slack.responsesFor(second.responseUrlId)[1], 8000);
    const polls = h.requestsTo('/get-content-ideas', 'GET');
    expect(polls.length).toBeGreaterThan(2);
    expect(polls.every((p) => p.query['status'] === 'active' && p.query['brand_id'] === acme.id)).toBe(true);
    expect(h.requestsTo('/get-content-ideas', 'POST')).toHaveLength(2);
    const meta = (await (
      await fetch(`${h.sim.url}/get-content-ideas?brand_id=${acme.id}&limit=1`, {
        headers: { authorization: `Bearer ${h.sim.apiKey}` },
      })
    ).json()) as { meta: { generation_status: string } };
    expect(meta.meta.generation_status).toBe('completed');

    const audit = (await h.deps.auditLog.recent(10)).filter((e) => e.action === 'refresh content ideas');
    expect(audit).toHaveLength(2);
    expect(audit.every((e) => e.result === 'ok' && e.brandId === acme.id)).toBe(true);
  });

  it('relays the answer for a viewer brand (the refresh is attempted)', async () => {
    const { reply, responseUrlId } = await h.command('ideas "Northwind Outfitters" refresh');
    expect(h.requestsTo('/get-content-ideas', 'POST').map((r) => r.body)).toEqual([
      { brand_id: SEED_BRANDS.northwind.id, action: 'refresh' },
    ]);
    expect(reply.text).toMatch(/Generating|already being generated/);
    simClock.advance(600);
    await h.slack.waitFor(() => h.slack.responsesFor(responseUrlId)[1], 8000);
  });
});

describe('ideas refresh that outlasts the watch', () => {
  const h = useReadHarness(
    {
      simulator: { generationMs: 60_000 },
      refreshTiming: { pollIntervalMs: 20, timeoutMs: 150 },
    },
    { resetEach: false },
  );

  it('replaces the message with "still being generated" after the timeout', async () => {
    const first = await h.command('ideas "Acme Analytics" refresh');
    const later = await h.slack.waitFor(() => h.slack.responsesFor(first.responseUrlId)[1], 8000);
    const body = later.body as { text: string; replace_original?: boolean };
    expect(body.replace_original).toBe(true);
    expect(body.text).toContain('still being generated');
    const polls = h.requestsTo('/get-content-ideas', 'GET');
    expect(polls.length).toBeGreaterThanOrEqual(2);
    // The watch ends there (it says so once it returned): nothing more can be posted.
    await h.slack.waitFor(
      () => h.logLines.some((l) => l.includes('stopped following the content ideas refresh')),
      8000,
    );
    const ended = h.logLines.filter((l) => l.includes('stopped following the content ideas refresh'));
    expect(ended.map((l) => JSON.parse(l).outcome)).toEqual(['timeout']);
    expect(h.slack.responsesFor(first.responseUrlId)).toHaveLength(2);
    expect(h.requestsTo('/get-content-ideas', 'GET')).toHaveLength(polls.length);
  });
});
