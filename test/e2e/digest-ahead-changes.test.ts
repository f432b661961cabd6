/**
 * What can happen to a digest between the time it is prepared (the scheduler's digest
 * lead) and the time it posts: the channel moves its digest time, later or to a time
 * already past, or the process that prepared it dies. In every case the channel gets that
 * day's digest exactly once, at the time it asked for (or at once when that time is past),
 * never at the old time. Time is the harness's clock, advanced by hand.
 */

import { describe, expect, it } from 'vitest';
import { zonedParts, zonedTimeToUtcMs } from '../../src/alerts/zoned-time.js';
import { dayText } from '../../src/figures/day-text.js';
import { createOutboxRelay } from '../../src/jobs/outbox-relay.js';
import { createScheduler, DIGEST_LEAD_MS } from '../../src/jobs/scheduler.js';
import { sqliteDbOf } from '../store/temp-db.js';
import { HOUR_MS, messageText, useAlertsHarness } from './alerts-harness.js';

const h = useAlertsHarness();
const TZ = 'America/New_York';
const MIN = 60_000;

const hhmmOf = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** The local digest time `offsetMs` from the bot's now, whole minutes, in TZ. */
function localTimeIn(offsetMs: number): { hhmm: string; atMs: number; date: string } {
  const local = zonedParts(h.botClock.now() + offsetMs, TZ);
  const hhmm = hhmmOf(local.minutes);
  return { hhmm, atMs: zonedTimeToUtcMs(local.date, hhmm, TZ), date: local.date };
}

async function setDigestTime(channel: string, hhmm: string): Promise<void> {
  const reply = await h.command(`settings "Globex Corporation" digest=${hhmm} tz=${TZ}`, channel);
  expect(reply.text).not.toMatch(/couldn|can't|cannot|invalid/i);
}

/**
 * Subscribes `channel` to Globex's digest about two hours from now; returns that time. The
 * clock first moves out of the local evening, so every time a test names stays on one
 * local day whenever the suite runs.
 */
async function digestInTwoHours(channel: string) {
  const { minutes } = zonedParts(h.botClock.now(), TZ);
  if (minutes > 18 * 60) h.botClock.advance((24 * 60 - minutes + 60) * MIN);
  await h.command('subscribe "Globex Corporation" digest', channel);
  const at = localTimeIn(2 * HOUR_MS);
  await setDigestTime(channel, at.hhmm);
  return at;
}

const digestRows = (channel: string): string[] =>
  sqliteDbOf(h.deps.store)
    .prepare(`SELECT status FROM outbox WHERE channel_id = ? AND kind = 'digest' ORDER BY id`)
    .pluck()
    .all(channel) as string[];

const ideasCalls = () => h.sim.requests.filter((r) => r.path === '/get-content-ideas').length;
const relay = (owner = 'test-relay') => createOutboxRelay(h.deps, { owner, paceMs: 20 });
const scheduler = () => createScheduler(h.deps, { relay: { paceMs: 20 }, catchUpOnStart: false });
const advanceTo = (ms: number) => h.botClock.advance(ms - h.botClock.now());

describe('a digest prepared ahead, then changed', () => {
  it('moved later: nothing at the old time, prepared again and posted once at the new time', async () => {
    const ch = h.channel('CLATER');
    const old = await digestInTwoHours(ch);
    const s = scheduler();
    advanceTo(old.atMs - DIGEST_LEAD_MS + MIN);
    await s.digestTick();
    expect(digestRows(ch)).toEqual(['pending']);

    const later = localTimeIn(old.atMs - h.botClock.now() + 3 * HOUR_MS);
    await setDigestTime(ch, later.hhmm);
    // The row prepared for the old time is taken back with the change.
    expect(digestRows(ch)).toEqual([]);

    advanceTo(old.atMs + MIN);
    await s.digestTick();
    await relay().drainOnce();
    expect(h.posts(ch)).toEqual([]);

    const calls = ideasCalls();
    advanceTo(later.atMs - DIGEST_LEAD_MS + MIN);
    await s.digestTick();
    expect(ideasCalls()).toBe(calls + 1);
    expect(digestRows(ch)).toEqual(['pending']);
    advanceTo(later.atMs - MIN);
    await relay().drainOnce();
    expect(h.posts(ch)).toEqual([]);

    advanceTo(later.atMs);
    await relay().drainOnce();
    expect(h.posts(ch)).toHaveLength(1);
    const text = messageText(h.posts(ch)[0]!);
    expect(text).toContain('Globex Corporation: daily digest');
    expect(text).toContain(dayText(later.date));
    expect(text).not.toContain('(late)');

    advanceTo(later.atMs + 30 * MIN);
    await s.digestTick();
    await relay().drainOnce();
    expect(h.posts(ch)).toHaveLength(1);
    await s.stop();
  });

  it('moved to a time already past today: posted at once, and not again at the old time', async () => {
    const ch = h.channel('CEARLIER');
    const old = await digestInTwoHours(ch);
    const s = scheduler();
    advanceTo(old.atMs - DIGEST_LEAD_MS + MIN);
    await s.digestTick();
    expect(digestRows(ch)).toEqual(['pending']);

    const past = localTimeIn(-10 * MIN);
    // Same local day (the test would be about yesterday's digest otherwise).
    expect(past.date).toBe(old.date);
    await setDigestTime(ch, past.hhmm);
    await s.digestTick();
    await relay().drainOnce();
    expect(h.posts(ch)).toHaveLength(1);
    expect(messageText(h.posts(ch)[0]!)).toContain(dayText(old.date));

    advanceTo(old.atMs + MIN);
    await s.digestTick();
    await relay().drainOnce();
    expect(h.posts(ch)).toHaveLength(1);
    expect(digestRows(ch)).toEqual(['sent']);
    await s.stop();
  });

  it('a change that keeps the time (a threshold) leaves the prepared digest where it is', async () => {
    const ch = h.channel('CKEEP');
    const at = await digestInTwoHours(ch);
    const s = scheduler();
    advanceTo(at.atMs - DIGEST_LEAD_MS + MIN);
    await s.digestTick();
    const calls = ideasCalls();
    await h.command('settings "Globex Corporation" ai-pages=85,95', ch);
    expect(digestRows(ch)).toEqual(['pending']);
    await s.digestTick();
    expect(ideasCalls()).toBe(calls);

    advanceTo(at.atMs);
    await relay().drainOnce();
    expect(h.posts(ch)).toHaveLength(1);
    await s.stop();
  });
});

describe('a digest prepared ahead by a process that then died', () => {
  it('is posted once by the next process, even hours after its time, and never prepared twice', async () => {
    const ch = h.channel('CCRASH');
    const at = await digestInTwoHours(ch);
    const first = scheduler();
    advanceTo(at.atMs - DIGEST_LEAD_MS + MIN);
    await first.digestTick();
    expect(digestRows(ch)).toEqual(['pending']);
    const calls = ideasCalls();
    // The process dies here: its relay never posts. The bot is back two hours later.
    await first.stop();

    advanceTo(at.atMs + 2 * HOUR_MS);
    const second = scheduler();
    await second.digestTick();
    expect(ideasCalls()).toBe(calls);
    expect(digestRows(ch)).toEqual(['pending']);

    await relay('next-process').drainOnce();
    expect(h.posts(ch)).toHaveLength(1);
    expect(messageText(h.posts(ch)[0]!)).toContain(dayText(at.date));
    expect(digestRows(ch)).toEqual(['sent']);

    advanceTo(at.atMs + 3 * HOUR_MS);
    await second.digestTick();
    await relay('next-process').drainOnce();
    expect(h.posts(ch)).toHaveLength(1);
    await second.stop();
  });
});
