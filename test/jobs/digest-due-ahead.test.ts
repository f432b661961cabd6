/**
 * Which digest the scheduler writes with a lead: one already due (on time, or missed and
 * late) goes out at once as before; otherwise one due within the lead is written to go out
 * at its time, never marked late; beyond the lead, nothing. Poll data shown in a digest
 * prepared ahead must still be fresh when it posts.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_SETTINGS } from '../../src/alerts/alert-settings.js';
import { digestDueFor, freshObservation } from '../../src/jobs/digest-job.js';
import type { Subscription } from '../../src/store/subscriptions-repo.js';

const MIN = 60_000;
const H = 60 * MIN;
const NINE_LONDON = Date.parse('2026-11-24T09:00:00Z');
const sub = (lastDigestDate: string | null) =>
  ({
    settings: { ...DEFAULT_ALERT_SETTINGS, digestTime: '09:00', timezone: 'Europe/London' },
    lastDigestDate,
    createdAtMs: NINE_LONDON - 10 * 24 * H,
  }) as Subscription;
const at = (nowMs: number, lead = 45 * MIN) => ({ nowMs, force: false, digestLeadMs: lead });

describe('digestDueFor with a lead', () => {
  it('writes a digest due within the lead to go out at its time, not late', () => {
    expect(digestDueFor(sub('2026-11-23'), 'UTC', at(NINE_LONDON - 46 * MIN))).toBeNull();
    expect(digestDueFor(sub('2026-11-23'), 'UTC', at(NINE_LONDON - 44 * MIN))).toEqual({
      date: '2026-11-24',
      scheduledAtMs: NINE_LONDON,
      late: false,
      sendAfterMs: NINE_LONDON,
    });
    // Without a lead (run as before): only at its time.
    expect(digestDueFor(sub('2026-11-23'), 'UTC', at(NINE_LONDON - 44 * MIN, 0))).toBeNull();
    expect(digestDueFor(sub('2026-11-23'), 'UTC', at(NINE_LONDON, 0))).toMatchObject({ sendAfterMs: null });
    // Prepared already: nothing more that day.
    expect(digestDueFor(sub('2026-11-24'), 'UTC', at(NINE_LONDON - 10 * MIN))).toBeNull();
  });

  it('sends a missed digest once, late and at once, before preparing the next', () => {
    const missed = digestDueFor(sub('2026-11-20'), 'UTC', at(NINE_LONDON - 30 * MIN));
    expect(missed).toEqual({
      date: '2026-11-23',
      scheduledAtMs: NINE_LONDON - 24 * H,
      late: true,
      sendAfterMs: null,
    });
    expect(digestDueFor(sub('2026-11-23'), 'UTC', at(NINE_LONDON - 30 * MIN))?.sendAfterMs).toBe(NINE_LONDON);
  });

  it('run-job (force) posts today’s digest at once whatever the lead', () => {
    const now = NINE_LONDON - 5 * H;
    expect(
      digestDueFor(sub('2026-11-24'), 'UTC', { nowMs: now, force: true, digestLeadMs: 45 * MIN }),
    ).toEqual({
      date: '2026-11-24',
      scheduledAtMs: now,
      late: false,
      sendAfterMs: null,
    });
  });
});

describe('freshObservation for a digest prepared ahead', () => {
  it('judges the age of a citation feed at the post time', () => {
    const seen = { observedAtMs: NINE_LONDON - 24 * H - 20 * MIN, data: 'feed' };
    const prepared = NINE_LONDON - 40 * MIN;
    expect(freshObservation(seen, 'citations', prepared)).toBe('feed');
    expect(freshObservation(seen, 'citations', prepared, NINE_LONDON)).toBeNull();
  });
});
