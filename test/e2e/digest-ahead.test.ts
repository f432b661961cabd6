/**
 * Digests prepared ahead of their local time (the scheduler's digest lead): the ideas are
 * fetched and the outbox row written before the digest time, the relay does not post it
 * before that time and posts it at it, exactly once even when the scheduler restarts in
 * between; `run-job digest` still posts at once, and a channel that turns its digest off
 * before the time gets nothing. Time is the harness's clock, advanced by hand (and held
 * still where a check is a millisecond before the time).
 */

import { describe, expect, it, onTestFinished } from 'vitest';
import { zonedParts, zonedTimeToUtcMs } from '../../src/alerts/zoned-time.js';
import { dayText } from '../../src/figures/day-text.js';
import { createOutboxRelay } from '../../src/jobs/outbox-relay.js';
import { createScheduler, DIGEST_LEAD_MS } from '../../src/jobs/scheduler.js';
import { sqliteDbOf } from '../store/temp-db.js';
import { HOUR_MS, messageText, useAlertsHarness } from './alerts-harness.js';

const h = useAlertsHarness();
const TZ = 'America/New_York';

/** Subscribes `channel` to Globex's digest at a local time about an hour from now; returns that time. */
async function digestInAnHour(channel: string): Promise<{ atMs: number; date: string }> {
  await h.command('subscribe "Globex Corporation" digest', channel);
  const local = zonedParts(h.botClock.now() + HOUR_MS, TZ);
  const hhmm = `${String(Math.floor(local.minutes / 60)).padStart(2, '0')}:${String(local.minutes % 60).padStart(2, '0')}`;
  await h.command(`settings "Globex Corporation" digest=${hhmm} tz=${TZ}`, channel);
  return { atMs: zonedTimeToUtcMs(local.date, hhmm, TZ), date: local.date };
}

/** The statuses of the digest rows written for `channel`. */
const digestRows = (channel: string): string[] =>
  sqliteDbOf(h.deps.store)
    .prepare(`SELECT status FROM outbox WHERE channel_id = ? AND kind = 'digest' ORDER BY id`)
    .pluck()
    .all(channel) as string[];

function relay() {
  return createOutboxRelay(h.deps, { owner: 'test-relay', paceMs: 20 });
}

describe('digest prepared ahead', () => {
  it('is written before its time, posted at its time and not before, once across a restart', async () => {
    const ch = h.channel('CAHEAD');
    const { atMs, date } = await digestInAnHour(ch);
    const ideasCalls = () => h.sim.requests.filter((r) => r.path === '/get-content-ideas').length;

    const first = createScheduler(h.deps, { relay: { paceMs: 20 }, catchUpOnStart: false });
    await first.digestTick();
    // An hour off: beyond the lead, nothing prepared yet.
    expect(digestRows(ch)).toEqual([]);

    h.botClock.advance(atMs - DIGEST_LEAD_MS + 60_000 - h.botClock.now());
    const callsBefore = ideasCalls();
    await first.digestTick();
    expect(ideasCalls()).toBe(callsBefore + 1);
    expect(digestRows(ch)).toEqual(['pending']);
    expect(h.posts(ch)).toEqual([]);

    // A run-job beside serve neither posts it nor counts it as waiting on a retry.
    const other = await h.runJobs('crawler');
    expect(other.delivery?.pending).toBe(0);
    expect(h.posts(ch)).toEqual([]);
    expect(digestRows(ch)).toEqual(['pending']);

    // The relay runs right up to the digest time: nothing goes out early. The clock stands
    // still a millisecond before it, so a slow machine cannot carry it past the time.
    const r = relay();
    h.botClock.freeze();
    onTestFinished(() => h.botClock.resume());
    h.botClock.advance(atMs - 1 - h.botClock.now());
    await r.drainOnce();
    expect(h.posts(ch)).toEqual([]);

    // The bot restarts just before the digest time: the new scheduler prepares nothing again.
    await first.stop();
    const second = createScheduler(h.deps, { relay: { paceMs: 20 }, catchUpOnStart: false });
    await second.digestTick();
    expect(digestRows(ch)).toEqual(['pending']);
    expect(ideasCalls()).toBe(callsBefore + 1);
    expect(h.posts(ch)).toEqual([]);

    h.botClock.resume();
    h.botClock.advance(atMs - h.botClock.now());
    await relay().drainOnce();
    expect(h.posts(ch)).toHaveLength(1);
    const text = messageText(h.posts(ch)[0]!);
    expect(text).toContain('Globex Corporation: daily digest');
    expect(text).toContain(dayText(date));
    expect(text).not.toContain('(late)');

    // Later ticks and drains that day post nothing more.
    h.botClock.advance(10 * 60_000);
    await second.digestTick();
    await relay().drainOnce();
    expect(h.posts(ch)).toHaveLength(1);
    expect(digestRows(ch)).toEqual(['sent']);
    await second.stop();
  });

  it('run-job digest posts a digest prepared for later at once, and only once', async () => {
    const ch = h.channel('CNOW');
    const { atMs } = await digestInAnHour(ch);
    const scheduler = createScheduler(h.deps, { relay: { paceMs: 20 }, catchUpOnStart: false });
    h.botClock.advance(atMs - DIGEST_LEAD_MS + 60_000 - h.botClock.now());
    await scheduler.digestTick();
    expect(h.posts(ch)).toEqual([]);

    const run = await h.runJobs('digest');
    expect(run.jobs[0]).toMatchObject({ job: 'digest', status: 'ok' });
    expect(h.posts(ch)).toHaveLength(1);

    h.botClock.advance(atMs - h.botClock.now() + 60_000);
    await scheduler.digestTick();
    await relay().drainOnce();
    expect(h.posts(ch)).toHaveLength(1);
    await scheduler.stop();
  });

  it('is not posted when the channel turns its digest off before the time', async () => {
    const ch = h.channel('COFF');
    const { atMs } = await digestInAnHour(ch);
    const scheduler = createScheduler(h.deps, { relay: { paceMs: 20 }, catchUpOnStart: false });
    h.botClock.advance(atMs - DIGEST_LEAD_MS + 60_000 - h.botClock.now());
    await scheduler.digestTick();
    expect(digestRows(ch)).toEqual(['pending']);

    await h.command('unsubscribe globex digest', ch);
    h.botClock.advance(atMs - h.botClock.now());
    await relay().drainOnce();
    expect(h.posts(ch)).toEqual([]);
    expect(digestRows(ch)).toEqual(['failed']);
    await scheduler.stop();
  });
});
