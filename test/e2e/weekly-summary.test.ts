/**
 * The weekly summary end to end, against the API simulator and the local Slack: turned on
 * with `settings weekly=on` in a channel that has no digest, it covers the past 7 days (a
 * cited page lost that week, an alert and who acknowledged it, the week-over-week figures
 * by their glossary names, a chart in its thread); `run-job weekly` (the real process)
 * posts it now and once; and the scheduler posts it once per week per channel at its day
 * and time in the channel's zone, across restarts (a fresh app over the same database each
 * time), with two processes ticking at once, and once, marked late, after a missed week.
 */
import { describe, expect, it } from 'vitest';
import { weekDays } from '../../src/alerts/alert-settings.js';
import { zonedParts } from '../../src/alerts/zoned-time.js';
import { createAppDeps } from '../../src/app-deps.js';
import type { StoredMessage } from '../../src/dev/local-slack/index.js';
import { createScheduler } from '../../src/jobs/scheduler.js';
import { acme, DAY_MS, HOUR_MS, messageText, useAlertsHarness } from './alerts-harness.js';

const h = useAlertsHarness();
/** The local Slack's own user: a user it does not know is refused before any handler runs. */
const USER = 'U0LOCALUSR';

const weeklies = (channel: string) =>
  h.posts(channel).filter((m) => messageText(m).includes('weekly summary'));

/** What a person reads: the header and every section and context text, one per line. */
function visibleText(m: StoredMessage): string {
  const out: string[] = [];
  for (const b of (m.blocks ?? []) as Array<Record<string, unknown>>) {
    const text = (b['text'] as { text?: string } | undefined)?.text;
    if (text) out.push(text);
    for (const e of (b['elements'] as Array<{ text?: string }> | undefined) ?? [])
      if (e.text) out.push(e.text);
  }
  return out.join('\n\n');
}

describe('weekly summary content', () => {
  // First, while the bot's clock is the real one the spawned process reads.
  it('`run-job weekly` (the real process) posts the past week now, once', async () => {
    const ch = h.channel('CWEEKRUN');
    await h.command('subscribe "Northwind Outfitters" alerts', ch, USER);
    await h.command('settings "Northwind Outfitters" weekly=on weekly-day=friday', ch, USER);
    const run = await h.runJobProcess('weekly');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^weekly: 1 brand, 1 weekly summary \(/m);
    expect(weeklies(ch)).toHaveLength(1);
    expect(messageText(weeklies(ch)[0]!)).toContain('Northwind Outfitters: weekly summary for');
    // The same week again (here, in process): nothing more.
    const again = await h.runJobs('weekly');
    expect(again.jobs[0]).toMatchObject({ job: 'weekly', status: 'ok', messages: 0 });
    expect(weeklies(ch)).toHaveLength(1);
  }, 120_000);

  it('covers the past 7 days: a page lost, an alert and who acknowledged it, the figures week over week, a chart', async () => {
    const ch = h.channel('CWEEKLY1');
    const without = h.channel('CWEEKOFF');
    await h.command('subscribe "Acme Analytics" alerts', ch, USER);
    const reply = await h.command('settings "Acme Analytics" weekly=on', ch, USER);
    expect(reply.text + JSON.stringify(reply.blocks)).toContain('Weekly summary');
    await h.command('subscribe "Acme Analytics"', without, USER);

    // During the week: a cited page lost (the simulator's next day) and an AI Pages alert,
    // acknowledged in the channel.
    const lostUrl = h.sim.control.citationUrls(acme.id)[0]!;
    h.advanceSnapshot({ lose: [lostUrl] });
    h.sim.control.setAiPagesUsage(acme.id, {
      percentageUsed: 85.6,
      requestsThisMonth: 85_600,
      requestsLimit: 100_000,
      resetDate: '2031-01-01T00:00:00Z',
    });
    await h.runJobs('ai-pages');
    const [alert] = h.posts(ch);
    expect(alert).toBeDefined();
    await h.slack.blockAction(h.appUrl, {
      actionId: 'vis:alert:ack',
      channelId: ch,
      messageTs: alert!.ts,
      userId: USER,
    });
    await h.slack.waitFor(() => h.slack.messages(ch).find((m) => m.ts === alert!.ts && m.edited), 5000);

    // Two days later (the loss and the alert are inside the 7 whole days before today).
    h.botClock.advance(2 * DAY_MS);
    const run = await h.runJobs('weekly');
    // This channel's (and the run-job test's channel's when it ran: today is a new day for it).
    expect(run.jobs[0]).toMatchObject({ job: 'weekly', status: 'ok' });
    expect(weeklies(without)).toEqual([]);
    const [weekly] = weeklies(ch);
    expect(weekly).toBeDefined();
    const text = visibleText(weekly!);
    expect(text).toMatch(/^Acme Analytics: weekly summary for \w{3} \d+/);
    expect(text).not.toContain('late');
    // The page lost that week is among those lost (the simulator's daily churn loses others).
    expect(text).toMatch(/\*Cited pages lost and won back\*: [1-9]\d* lost, \d+ won back or newly cited/);
    expect(text).toMatch(new RegExp(`${lostUrl.replace(/[.?*+^$()[\]{}|\\/]/g, '\\$&')}|…and \\d+ more`));
    // From the alert states: raised that week, none resolved, still open and owned by nobody.
    expect(text).toContain('*Alerts*: 1 opened (AI Pages usage level), 0 resolved, 1 still open.');
    expect(text).toContain('Open, by owner: nobody yet (1).');
    expect(text).toContain(`Acknowledged by <@${USER}> (1).`);
    for (const figure of ['Cited pages', 'Citations', 'Brand mentions', 'AI crawler visits'])
      expect(text).toContain(`• *${figure}*: `);
    expect(text).not.toContain('unavailable');
    // The chart follows in its thread.
    const chart = await h.slack.waitFor(() => h.slack.files(ch)[0], 10_000);
    expect(chart).toBeDefined();

    // Posted once: the same week again writes nothing.
    await h.runJobs('weekly');
    expect(weeklies(ch)).toHaveLength(1);
  }, 120_000);
});

describe('weekly summary schedule', () => {
  it('once per week at its day and time, across restarts and two processes at once, and once late after a missed week', async () => {
    const ch = h.channel('CWEEKTIME');
    await h.command('subscribe "Globex Corporation" alerts', ch, USER);
    const tz = 'Asia/Tokyo';
    const firstDueAt = h.botClock.now() + HOUR_MS;
    const local = zonedParts(firstDueAt, tz);
    const hhmm = `${String(Math.floor(local.minutes / 60)).padStart(2, '0')}:${String(local.minutes % 60).padStart(2, '0')}`;
    const day = weekDays[(new Date(`${local.date}T12:00:00Z`).getUTCDay() + 6) % 7]!;
    await h.command(
      `settings "Globex Corporation" weekly=on weekly-day=${day} weekly-time=${hhmm} tz=${tz}`,
      ch,
    );

    /** A fresh app over the same database, as after a restart or on another replica. */
    const fresh = () => {
      const deps = createAppDeps(h.config, { clock: h.botClock });
      const scheduler = createScheduler(deps, { relay: { paceMs: 20 } });
      return {
        tick: () => scheduler.digestTick(),
        snapshot: () => scheduler.snapshot(),
        async close() {
          await scheduler.stop();
          await deps.close();
        },
      };
    };

    let app = fresh();
    await app.tick();
    expect(weeklies(ch)).toEqual([]);

    h.botClock.advance(HOUR_MS + 60_000);
    await app.tick();
    await app.tick();
    expect(weeklies(ch)).toHaveLength(1);
    expect(messageText(weeklies(ch)[0]!)).not.toContain('late');
    expect((await app.snapshot()).jobs.weekly.nextRunAtMs).toBeGreaterThan(h.botClock.now());

    // Restarted: nothing again for the same week.
    await app.close();
    app = fresh();
    await app.tick();
    expect(weeklies(ch)).toHaveLength(1);

    // A week later, two processes tick at its time together: one summary.
    h.botClock.advance(7 * DAY_MS);
    const other = fresh();
    await Promise.all([app.tick(), other.tick()]);
    await other.close();
    expect(weeklies(ch)).toHaveLength(2);
    expect(messageText(weeklies(ch)[1]!)).not.toContain('late');

    // Down through the next one: posted once when back, marked late, naming the day.
    await app.close();
    h.botClock.advance(7 * DAY_MS + 3 * HOUR_MS);
    app = fresh();
    await app.tick();
    await app.tick();
    expect(weeklies(ch)).toHaveLength(3);
    const dayName = day.charAt(0).toUpperCase() + day.slice(1);
    expect(messageText(weeklies(ch)[2]!)).toContain(`(late: the bot was not running on ${dayName})`);
    await app.close();
    app = fresh();
    await app.tick();
    expect(weeklies(ch)).toHaveLength(3);

    // Down for three weeks: one late summary, for the latest week.
    h.botClock.advance(21 * DAY_MS);
    await app.tick();
    await app.tick();
    expect(weeklies(ch)).toHaveLength(4);
    await app.close();
  }, 240_000);
});
