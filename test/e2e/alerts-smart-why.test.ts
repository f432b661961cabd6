/**
 * The AI model rule, why-lines and folding end to end: the real jobs against the API
 * simulator (a model dropping out and back, a crawler blocked in robots.txt), posting to the
 * local Slack. One alert when the model stops, one notice when it cites again; a blocked
 * crawler and its fall arrive as one message, the block first.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { acme, globex, messageText, useAlertsHarness } from './alerts-harness.js';

const h = useAlertsHarness();
beforeEach(() => {
  h.slack.calls.length = 0;
});

const MODEL = 'perplexity-sonar';
const listRequests = () =>
  h.sim.requests.filter((r) => r.path === '/get-citations' && (r.query['view'] ?? 'list') === 'list');

describe('a model that stops citing the brand', () => {
  it('one alert when it stops, one notice when it cites again, and the list read only when asked for', async () => {
    const ch = h.channel('CMODEL');
    await h.command('subscribe "Acme Analytics" alerts', ch);
    await h.runJobs('citations');
    expect(listRequests()).toHaveLength(0);
    const reply = await h.command('settings "Acme Analytics" model-alerts=on', ch);
    expect(JSON.stringify(reply)).toContain('AI model alerts');
    // status counts the list call: one brand, with model alerts, 5.2 + 1 calls a day.
    expect(JSON.stringify(await h.command('status', ch))).toContain('About 6.2 calls per brand per day');

    // Five ordinary days: the model cites the brand every day.
    for (let day = 0; day < 5; day++) {
      h.advanceSnapshot({});
      await h.runJobs('citations');
    }
    expect(listRequests().length).toBe(5);
    expect(listRequests().at(-1)!.query).toMatchObject({ brand_id: acme.id, limit: '500' });
    expect(h.posts(ch)).toEqual([]);

    // It drops out: its pages are lost that day (lost-page alerts), but one silent day is not yet "stopped".
    h.advanceSnapshot({ dropModel: MODEL });
    await h.runJobs('citations');
    const afterDrop = h.posts(ch).length;
    expect(h.posts(ch).map(messageText).join('\n')).not.toContain(`${MODEL} stopped citing`);

    // The second silent snapshot: one alert, in plain words with the numbers.
    h.advanceSnapshot({});
    await h.runJobs('citations');
    const stopped = h.posts(ch).slice(afterDrop);
    expect(stopped).toHaveLength(1);
    const text = messageText(stopped[0]!);
    expect(text).toContain(`${MODEL} stopped citing Acme Analytics`);
    expect(text).toMatch(
      new RegExp(
        `${MODEL} stopped citing Acme Analytics: 0 cited pages in the last 2 days, \\d+ (the day before|on )`,
      ),
    );

    // Still silent, and the same run repeated: nothing more.
    h.advanceSnapshot({});
    await h.runJobs('citations');
    await h.runJobs('citations');
    expect(h.posts(ch).slice(afterDrop)).toHaveLength(1);

    // It cites again: one notice.
    h.advanceSnapshot({ restoreModel: MODEL });
    await h.runJobs('citations');
    const back = h
      .posts(ch)
      .slice(afterDrop + 1)
      .map(messageText);
    expect(back.filter((t) => t.includes(`${MODEL} cites Acme Analytics again`))).toHaveLength(1);
    h.advanceSnapshot({});
    await h.runJobs('citations');
    expect(
      h
        .posts(ch)
        .map(messageText)
        .filter((t) => t.includes(`${MODEL} cites Acme Analytics again`)),
    ).toHaveLength(1);
  });
});

describe('a crawler blocked in robots.txt', () => {
  it('the block and the fall it explains arrive as one message, the block first, with the pages that fell', async () => {
    const ch = h.channel('CBLOCK');
    // The simulator's days moved on in the test before: the bot's day follows them.
    h.botClock.advance(Math.max(0, h.simClock.now() - h.botClock.now()));
    await h.command('subscribe "Globex Corporation" alerts', ch);
    // ClaudeBot is about a sixth of this site's AI crawler visits: a fall of that size alerts here.
    await h.command('settings "Globex Corporation" crawler-drop=10 crawler-recovery=5', ch);
    await h.runJobs('crawler');
    expect(h.posts(ch)).toEqual([]);

    const res = await fetch(`${h.sim.url}/__control/block-crawler`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ brandId: globex.id, crawler: 'ClaudeBot', days: 8 }),
    });
    expect(res.status).toBe(200);
    const before = h.sim.requests.length;
    await h.runJobs('crawler');
    const posts = h.posts(ch);
    expect(posts).toHaveLength(1);
    const text = messageText(posts[0]!);
    expect(text).toContain("ClaudeBot blocked on Globex Corporation's site");
    // Only findings that keep a crawler out count as a cause (not the missing llms.txt).
    expect(text).not.toContain('llms.txt');
    expect(text).toContain('Fell most: ClaudeBot');
    expect(text).toMatch(/Pages with the largest fall in AI crawler visits: https:\/\/[^ ]+ [\d,]+ → [\d,]+/);
    expect(text).toContain('robots.txt blocks ClaudeBot');
    expect(text).toContain('Changes this explains:');
    expect(text).toMatch(/AI crawler visits down \d+ %/);
    expect(text.indexOf('robots.txt blocks ClaudeBot')).toBeLessThan(text.indexOf('AI crawler visits down'));
    // The extra calls: the access check and the pages of both periods, once.
    const extra = h.sim.requests.slice(before).map((r) => r.path);
    expect(extra.filter((p) => p === '/crawler/access')).toHaveLength(1);
    expect(extra.filter((p) => p === '/crawler/pages')).toHaveLength(2);

    await h.runJobs('crawler');
    expect(h.posts(ch)).toHaveLength(1);
  });
});
