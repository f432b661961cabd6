/**
 * One page's sentiment fall on two screens: the alert and the change feed. The alert
 * measures from the feed the job read (a day back); the view from the window the user asks
 * for (a day or a week back). Each names the day its earlier value is from, so the same
 * window shows the same numbers, and two windows read as two periods, never as two
 * answers to one question.
 */
import { describe, expect, it } from 'vitest';
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

    // A week back the earlier value is another day's: the line says which.
    const week = blockTexts((await h.command('citations "Acme Analytics" feed')).blocks);
    const weekLine = feedLine(week, url);
    expect(weekLine.to).toBe(40);
    expect(weekLine.day).toBe(earlierSnapshotDay(week));
    expect(weekLine.day).not.toBe(fromDay);
  });
});
