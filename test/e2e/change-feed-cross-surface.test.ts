/**
 * The change feed against the messages that send people to it. An alert and a digest are
 * read from the feed the jobs fetched (a day back); the view shows the window its button
 * or its user asks for. Their buttons open the view on their own window, so it lists the
 * same pages and values; and each sentiment change names the day its earlier value is
 * from, so a week's view of the same page reads as another period, never as another
 * answer to the same question.
 */
import { describe, expect, it } from 'vitest';
import type { StoredMessage } from '../../src/dev/local-slack/index.js';
import { acme, messageText, useAlertsHarness } from './alerts-harness.js';

const h = useAlertsHarness();
const CHANNEL = 'CSENTIMENT';

/** Reader's text: date tokens as their fallback words, entities decoded. */
const readable = (text: string) =>
  text
    .replace(/<!date\^\d+\^[^|]+\|([^>]+)>/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

const blockTexts = (blocks: unknown): string => readable(JSON.stringify(blocks).replace(/\\n/g, '\n'));

const DAY_WORDS = '[A-Z][a-z]{2} \\d{1,2}, \\d{4}';

/** The feed view's sentiment line for `url`: earlier value, its day, the value now. */
function feedLine(text: string, url: string) {
  const line = text.split('\n').find((l) => l.includes(url) && l.includes('sentiment'));
  expect(line, text).toBeDefined();
  const m = new RegExp(`sentiment (\\d+)/100 on (${DAY_WORDS}) → \\*(\\d+)/100\\*`).exec(line!);
  expect(m, line).not.toBeNull();
  return { from: Number(m![1]), day: m![2]!, to: Number(m![3]) };
}

/** A button of a message's blocks, by action id. */
function findButton(blocks: unknown, actionId: string): { value: string } {
  const found: { value: string }[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === 'object' && v !== null) {
      const o = v as Record<string, unknown>;
      if (o['action_id'] === actionId && typeof o['value'] === 'string') found.push({ value: o['value'] });
      Object.values(o).forEach(walk);
    }
  };
  walk(blocks);
  expect(found, JSON.stringify(blocks)).toHaveLength(1);
  return found[0]!;
}

/** Clicks a message's change-feed button, as its reader would; the view's text. */
async function openChangeFeed(message: StoredMessage): Promise<string> {
  const click = await h.slack.blockAction(h.appUrl, {
    actionId: 'vis:open:citations-feed',
    value: findButton(message.blocks, 'vis:open:citations-feed').value,
    channelId: CHANNEL,
    messageTs: message.ts,
  });
  const opened = await h.slack.waitFor(() => h.slack.responsesFor(click.responseUrlId)[0], 8000);
  return blockTexts((opened.body as { blocks: unknown }).blocks);
}

/** The day the view's header gives for its earlier snapshot. */
const earlierSnapshotDay = (text: string) => new RegExp(`vs [\\d,]+ on (${DAY_WORDS})`).exec(text)?.[1];

describe('a sentiment fall on the alert and on the change feed', () => {
  it('names the day of each value, and a one-day feed shows the alert’s numbers', async () => {
    h.channel(CHANNEL);
    await h.command('subscribe "Acme Analytics"', CHANNEL);
    const url = h.sim.control.citationUrls(acme.id)[0]!;
    // Up first (no alert), then down 50 points the next day.
    h.advanceSnapshot({ sentiment: [{ url, to: 90 }] });
    await h.runJobs('citations');
    h.advanceSnapshot({ sentiment: [{ url, to: 40 }] });
    await h.runJobs('citations');

    const alert = h.posts(CHANNEL).find((m) => messageText(m).includes('Sentiment fell'));
    expect(alert).toBeDefined();
    const alertText = readable(messageText(alert!));
    const said = new RegExp(`fell from (\\d+)/100 on (${DAY_WORDS}) to (\\d+)/100 on (${DAY_WORDS})`).exec(
      alertText,
    );
    expect(said, alertText).not.toBeNull();
    const [, from, fromDay, to] = said!;
    expect([Number(from), Number(to)]).toEqual([90, 40]);
    expect(alertText).toContain(`Sentiment fell 50 points`);

    const oneDay = blockTexts((await h.command('citations "Acme Analytics" feed --days-back 1')).blocks);
    expect(feedLine(oneDay, url)).toEqual({ from: 90, day: fromDay, to: 40 });
    expect(earlierSnapshotDay(oneDay)).toBe(fromDay);

    // The alert's button opens the feed over the alert's own day, with the alert's numbers.
    const openedText = await openChangeFeed(alert!);
    expect(openedText).toContain('1 day back');
    expect(feedLine(openedText, url)).toEqual({ from: 90, day: fromDay, to: 40 });

    // A week back the earlier value is another day's: the line says which.
    const week = blockTexts((await h.command('citations "Acme Analytics" feed')).blocks);
    const weekLine = feedLine(week, url);
    expect(weekLine.to).toBe(40);
    expect(weekLine.day).toBe(earlierSnapshotDay(week));
    expect(weekLine.day).not.toBe(fromDay);
  });

  it('the digest’s change feed button opens the feed its pages and counts came from', async () => {
    const url = h.sim.control.citationUrls(acme.id)[1]!;
    h.advanceSnapshot({ lose: [url] });
    await h.runJobs('citations');
    await h.runJobs('digest');
    const digest = h.posts(CHANNEL).find((m) => (m.text ?? '').includes('daily digest'));
    expect(digest).toBeDefined();
    const digestText = blockTexts(digest!.blocks);
    const counts = /(\d+) new, (\d+) lost/.exec(digestText);
    expect(counts, digestText).not.toBeNull();
    const [, added, lost] = counts!.map(Number);

    const feed = await openChangeFeed(digest!);
    expect(feed).toContain('1 day back');
    expect(feed).toContain(url);
    const kinds = new Map(
      [...feed.matchAll(/(Lost|New|Competitor appeared|Sentiment changed) (\d+)/g)].map((m) => [
        m[1],
        Number(m[2]),
      ]),
    );
    expect({ lost: kinds.get('Lost') ?? 0, added: kinds.get('New') ?? 0 }).toEqual({ lost, added });
  });
});
