/**
 * One brand, one day, every surface: the views, the digest, the alerts, the charts' alt
 * text and the App Home, through the real Bolt app (signed requests), the real jobs, the
 * local Slack and the simulator. Each figure of the glossary that a surface shows is read
 * there under its glossary name, and every surface must show the same value: a marketer
 * who compares two screens finds one number per figure and one name per number.
 */
import { describe, expect, it } from 'vitest';
import type { StoredMessage } from '../../src/dev/local-slack/index.js';
import { dayText } from '../../src/figures/day-text.js';
import { type FigureId, figureName } from '../../src/figures/glossary.js';
import { dateOfDay, epochDay } from '../../src/utc-days.js';
import { acme, useAlertsHarness } from './alerts-harness.js';

const h = useAlertsHarness();
const USER = 'U0LOCALUSR';
const CHANNEL = 'CFIGURES';

type Json = Record<string, unknown>;

/** What a reader sees: every text field, entities decoded, date tokens as their fallback. */
function readable(value: unknown): string {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === 'object' && v !== null) {
      for (const [k, x] of Object.entries(v)) {
        if (k === 'text' && typeof x === 'string') out.push(x);
        else walk(x);
      }
    }
  };
  walk(value);
  return out
    .join('\n')
    .replace(/<!date\^\d+\^[^|]+\|([^>]+)>/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const NUMBER = '([\\d,]+)';
const num = (s: string) => Number(s.replace(/,/g, ''));

/** Where each figure was read, under which name, with which value. */
const seen = new Map<FigureId, { surface: string; value: number }[]>();

/**
 * Reads a figure from a surface's text with a pattern built around its glossary name
 * (`{name}` in the pattern): a surface that names it otherwise fails here, not silently.
 */
function read(id: FigureId, surface: string, text: string, pattern: string): number {
  const name = escapeRe(figureName(id));
  const m = new RegExp(pattern.replace('{name}', name)).exec(text);
  expect(m, `${surface} shows ${figureName(id)}:\n${text}`).not.toBeNull();
  const value = num(m![1]!);
  seen.set(id, [...(seen.get(id) ?? []), { surface, value }]);
  return value;
}

/** A command's reply, and the id of its response_url (to click its buttons). */
async function command(text: string): Promise<{ body: Json; responseUrlId: string }> {
  const res = await h.slack.slashCommand(h.appUrl, { text, channelId: CHANNEL, userId: USER });
  const post = await h.slack.waitFor(() => h.slack.responsesFor(res.responseUrlId)[0], 8000);
  return { body: post.body as Json, responseUrlId: res.responseUrlId };
}

const posts = (): StoredMessage[] => h.posts(CHANNEL);

describe('one value and one name per figure, on every surface', () => {
  it('views, digest, alerts, chart alt text and the App Home agree', async () => {
    h.channel(CHANNEL);
    await h.command('subscribe "Acme Analytics"', CHANNEL, USER);
    // An AI Pages level and a crawler fall, so the alerts carry those figures too.
    h.sim.control.setAiPagesUsage(acme.id, {
      percentageUsed: 91.6,
      requestsThisMonth: 91_600,
      requestsLimit: 100_000,
    });
    h.sim.control.setCrawlerTraffic(acme.id, { factor: 0.4, days: 8 });
    await h.runJobs('all');
    await h.runJobs('digest');
    const digest = posts().find((m) => m.text?.includes('daily digest'));
    const alerts = posts().filter((m) => m !== digest);
    expect(digest).toBeDefined();
    // The crawler fall and the AI Pages level, each its own message.
    expect(alerts).toHaveLength(2);
    const digestText = readable([digest!.blocks]);
    const alertText = readable(alerts.map((m) => m.blocks));
    // The digest's chart is drawn by Slack inside it; the text line after it states its numbers.
    const digestBlocks = digest!.blocks as { type: string; elements?: { text: string }[] }[];
    const chartAt = digestBlocks.findIndex((b) => b.type === 'data_visualization');
    expect(chartAt).toBeGreaterThan(0);
    const digestChart = { altText: digestBlocks[chartAt + 1]?.elements?.[0]?.text };

    // The views, read the same day.
    const list = readable((await h.command('citations "Acme Analytics"', CHANNEL, USER)).blocks);
    const feed = readable(
      (await h.command('citations "Acme Analytics" feed --days-back 1', CHANNEL, USER)).blocks,
    );
    const historyReply = await command('citations "Acme Analytics" history');
    const history = readable(historyReply.body['blocks']);
    const aipages = readable((await h.command('aipages "Acme Analytics"', CHANNEL, USER)).blocks);
    await h.slack.blockAction(h.appUrl, {
      actionId: 'vis:chart:citations-history',
      channelId: CHANNEL,
      userId: USER,
      responseUrlId: historyReply.responseUrlId,
    });
    const historyChart = await h.slack.waitFor(
      () => h.slack.files(CHANNEL).find((f) => f.title.startsWith(`${figureName('brandMentions')} ·`)),
      15_000,
    );
    // The crawler overview over exactly the days the digest and the alert speak of.
    const yesterday = dateOfDay(epochDay(h.botClock.now()) - 1);
    const weekStart = dateOfDay(epochDay(h.botClock.now()) - 7);
    const overview = readable(
      (await h.command(`crawler "Acme Analytics" ${weekStart}..${yesterday}`, CHANNEL, USER)).blocks,
    );
    await h.slack.event(h.appUrl, {
      type: 'app_home_opened',
      user: USER,
      tab: 'home',
      channel: 'D0LOCALUSR',
    });
    const home = readable((await h.slack.waitFor(() => h.slack.homeView(USER), 8000)).blocks);

    // Cited pages: the list's total, the feed's, the digest's.
    read('citedPages', 'citations list', list, `of ${NUMBER} cited pages`);
    read('citedPages', 'change feed', feed, `{name}: ${NUMBER} on `);
    read('citedPages', 'digest', digestText, `\\*{name}\\*: ${NUMBER} on `);

    // Citations (times cited) and mentions: the history view, the digest chart, the Home, the history chart.
    const day = dayText(/\*On ([A-Z][a-z]{2} \d+, \d{4})\*/.exec(history)![1]!);
    read('citations', 'history view', history, `\\*{name}\\*\\n${NUMBER}`);
    read(
      'citations',
      'digest chart alt text',
      digestChart.altText ?? '',
      `{name}, 7 days to ${escapeRe(day)}: [^.]* to ${NUMBER} on`,
    );
    read('citations', 'App Home', home, `{name}, 7 days to ${escapeRe(day)}: \`[^\`]+\` latest ${NUMBER}`);
    read('brandMentions', 'history view', history, `\\*{name}\\*\\n${NUMBER}`);
    read(
      'brandMentions',
      'history chart alt text',
      historyChart.altText ?? '',
      `brand mentions, \\d+ days to ${escapeRe(day)}: [^.]* to ${NUMBER} on`,
    );
    read('uniqueSources', 'history view', history, `\\*{name}\\*\\n${NUMBER}`);

    // The history chart beside the trend lines: each competitor starts and ends on the same values.
    const charted = /Competitor mentions: ([^\n]+?)\.(?:\n|$)/.exec(history)?.[1] ?? '';
    const pairs = charted.split('; ').map((part) => /^(.+) ([\d,]+) → ([\d,]+)$/.exec(part));
    expect(pairs.length, history).toBeGreaterThan(1);
    for (const pair of pairs) {
      expect(pair, charted).not.toBeNull();
      const [, competitor, first, last] = pair!;
      expect(history).toMatch(
        new RegExp(`\\*${escapeRe(competitor!)}\\*\\s+\`[^\`]*\`\\s+${first} → \\*${last}\\*`),
      );
    }

    // AI crawler visits over the 7 whole days to yesterday: the digest, the alert, the overview.
    const week = escapeRe(`7 days to ${dayText(yesterday)}`);
    read('aiCrawlerVisits', 'digest', digestText, `\\*{name}\\*, ${week}: ${NUMBER} vs`);
    read(
      'aiCrawlerVisits',
      'crawler alert',
      alertText,
      `visited Acme Analytics' site ${NUMBER} times in the ${week}`,
    );
    read(
      'aiCrawlerVisits',
      'digest chart alt text',
      digestChart.altText ?? '',
      `{name}, ${week}: ${NUMBER} in total`,
    );
    // The overview's hero figure (its label is the crawler screens' own until they take the glossary name).
    read('aiCrawlerVisits', 'crawler overview', overview, `\\*(?:Total visits|{name})\\*\\n\\*?${NUMBER}`);

    // AI Pages usage: the view, the alert, the digest, the App Home, all rounded down alike.
    read('aiPagesUsage', 'aipages view', aipages, `\\*{name}\\*  \`[▰▱]+ ${NUMBER} %\``);
    read('aiPagesUsage', 'AI Pages alert', alertText, `{name} is ${NUMBER} % of the monthly limit`);
    read('aiPagesUsage', 'digest', digestText, `\\*{name}\\*: ${NUMBER} % of the monthly limit`);
    read('aiPagesUsage', 'App Home', home, `{name}: \`[▰▱]+ ${NUMBER} %\``);
    read('aiPagesRequests', 'aipages view', aipages, `${NUMBER} of [\\d,]+ AI Pages requests`);
    read('aiPagesRequests', 'AI Pages alert', alertText, `${NUMBER} of [\\d,]+ AI Pages requests`);
    read('aiPagesRequests', 'digest', digestText, `\\(${NUMBER} of [\\d,]+ AI Pages requests`);

    // One value per figure, whatever the surface.
    for (const [id, reads] of seen) {
      const values = new Set(reads.map((r) => r.value));
      expect(values.size, `${figureName(id)}: ${JSON.stringify(reads)}`).toBe(1);
    }
    expect(seen.get('aiPagesUsage')![0]!.value).toBe(91);
    // One name per number: pages are never called citations, mentions never citations.
    expect(digestText).not.toMatch(/\*Citations\*: \d/);
    expect(history).not.toContain('Total citations');
    expect(historyChart.altText).not.toMatch(/citations/i);
  });
});
