/**
 * The channel knows (issue 11): subscribe, settings changes, mute (in words and "until …",
 * read in the channel's time zone), unmute and unsubscribe each post a note in the channel
 * naming who did it and how to undo it, while the person who typed the command still gets
 * their own private reply. A note Slack refuses is logged and mentioned in that reply; the
 * change itself is made. The real service, the local Slack and the simulator, over HTTP.
 */
import { describe, expect, it } from 'vitest';
import { zonedTimeToUtcMs } from '../../src/alerts/zoned-time.js';
import type { StoredMessage } from '../../src/dev/local-slack/index.js';
import { acme, HOUR_MS, messageText, useAlertsHarness } from './alerts-harness.js';

const USER = 'U0LOCALUSR';
const h = useAlertsHarness();

type Reply = Awaited<ReturnType<typeof h.command>> & { response_type?: string };

/** The one note a command added to `channel`, after `before` notes were there. */
async function newNote(channel: string, before: number): Promise<string> {
  const notes = await h.slack.waitFor(() => {
    const n = h.notes(channel);
    return n.length > before && n;
  }, 5000);
  expect(notes).toHaveLength(before + 1);
  const note = notes.at(-1) as StoredMessage;
  // Posted by the bot for everyone in the channel, not an ephemeral reply.
  expect(note.via).toBe('chat.postMessage');
  return messageText(note);
}

const muteOf = async (channel: string) =>
  (await h.deps.store.subscriptions.get(channel, acme.id))!.mutedUntilMs;

describe('the channel is told who changed what it receives, and how to undo it', () => {
  it('subscribe, settings, mute in words, unmute, unsubscribe: a note each, and the typist’s own reply', async () => {
    const ch = h.channel('CNOTES');

    const subscribed = (await h.command('subscribe "Acme Analytics"', ch)) as Reply;
    expect(subscribed.response_type ?? 'ephemeral').toBe('ephemeral');
    expect(subscribed.text).toContain('This channel is now subscribed to *Acme Analytics*');
    let note = await newNote(ch, 0);
    expect(note).toContain(`<@${USER}> subscribed this channel to *Acme Analytics*`);
    expect(note).toContain('`/visibility unsubscribe \\"Acme Analytics\\"` stops them');

    await h.command('settings "Acme Analytics" crawler-drop=25 tz=Europe/Berlin', ch);
    note = await newNote(ch, 1);
    expect(note).toContain(`<@${USER}> changed this channel's alert settings for *Acme Analytics*`);
    // The change in words, as the settings read everywhere.
    expect(note).toContain(
      "*Crawler drop*: 40 % → 25 %; *Time zone*: UTC (the bot's default) → Europe/Berlin.",
    );
    // The undo line carries the values from before the change.
    expect(note).toContain(
      '`/visibility settings \\"Acme Analytics\\" crawler-drop=40 tz=default` puts them back',
    );

    const before = h.deps.clock.now();
    const muted = (await h.command('mute "Acme Analytics" 2 hours', ch)) as Reply;
    expect(muted.response_type ?? 'ephemeral').toBe('ephemeral');
    expect(muted.text).toContain('muted for 2 hours, until <!date^');
    const until = (await muteOf(ch))!;
    expect(until - before).toBeGreaterThanOrEqual(2 * HOUR_MS);
    expect(until - h.deps.clock.now()).toBeLessThanOrEqual(2 * HOUR_MS);
    note = await newNote(ch, 2);
    expect(note).toContain(`<@${USER}> muted alerts for *Acme Analytics* in this channel for 2 hours`);
    expect(note).toContain('`/visibility unmute \\"Acme Analytics\\"` ends it now');

    const unmuted = await h.command('unmute "Acme Analytics"', ch);
    expect(unmuted.text).toContain('are back on in this channel');
    note = await newNote(ch, 3);
    expect(note).toContain(`<@${USER}> ended the mute`);
    expect(note).toContain('`/visibility mute \\"Acme Analytics\\" 2 hours` mutes them again');

    const gone = await h.command('unsubscribe "Acme Analytics" digest', ch);
    expect(gone.text).toContain('This channel no longer gets the daily digest (alerts continue)');
    note = await newNote(ch, 4);
    expect(note).toContain(`<@${USER}> unsubscribed this channel: it no longer gets the daily digest`);
    expect(note).toContain('`/visibility subscribe \\"Acme Analytics\\" digest` starts again');

    // The notes are not alerts: nothing else was posted.
    expect(h.posts(ch)).toEqual([]);
  });

  it('mute "until tomorrow 9:00" ends at 9:00 tomorrow in the subscription’s time zone', async () => {
    const ch = h.channel('CUNTIL');
    await h.command('subscribe "Acme Analytics" alerts', ch);
    await h.command('settings "Acme Analytics" tz=America/New_York', ch);
    // Frozen, so "tomorrow" cannot change between the command and the expectation.
    h.botClock.freeze();
    try {
      const now = h.deps.clock.now();
      const reply = await h.command('mute "Acme Analytics" until tomorrow 9:00', ch);
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(now);
      const tomorrow = new Date(Date.parse(`${today}T00:00:00Z`) + 24 * HOUR_MS).toISOString().slice(0, 10);
      const expected = zonedTimeToUtcMs(tomorrow, '09:00', 'America/New_York');
      expect(await muteOf(ch)).toBe(expected);
      expect(reply.text).toContain(`muted until <!date^${expected / 1000}^`);
      const note = await newNote(ch, 2);
      expect(note).toContain(`in this channel until <!date^${expected / 1000}^`);
    } finally {
      h.botClock.resume();
    }
  });

  it('a bad duration changes nothing, posts no note and lists the forms in words', async () => {
    const ch = h.channel('CBADDUR');
    await h.command('subscribe "Acme Analytics" alerts', ch);
    const reply = await h.command('mute "Acme Analytics" 3 fortnights', ch);
    expect(reply.text).toContain('"fortnights" is not a unit');
    for (const form of ['"30 minutes"', '"2 hours"', '"1 day"', '"until tomorrow 9:00"', '"until Monday"'])
      expect(reply.text).toContain(form);
    expect(await muteOf(ch)).toBeNull();
    expect(h.notes(ch)).toHaveLength(1);
  });

  it('a note Slack refuses does not fail the command: logged, and the typist is told', async () => {
    const ch = h.channel('CNONOTE');
    await h.command('subscribe "Acme Analytics" alerts', ch);
    h.slack.failNext('chat.postMessage', 'not_in_channel');
    const logged = h.logLines.length;
    const reply = await h.command('mute acme for 90 minutes', ch);
    expect(reply.text).toContain('muted for 1 hour 30 minutes');
    expect(reply.text).toContain('I could not tell the channel about this change');
    expect(reply.text).toContain('/invite @visibility-bot');
    expect(await muteOf(ch)).not.toBeNull();
    expect(h.notes(ch)).toHaveLength(1);
    const warning = h.logLines.slice(logged).find((l) => l.includes('channel note not posted'));
    expect(warning).toContain('not_in_channel');
  });
});
