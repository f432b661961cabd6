import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_SETTINGS } from '../../src/alerts/alert-settings.js';
import { baselineCitations, type CitationState, detectCitations } from '../../src/alerts/detect-citations.js';
import { BRAND, DAY, ev, feed, T0 } from './fixtures.js';

const S = DEFAULT_ALERT_SETTINGS;
const URL_A = 'https://blog.example.com/best-analytics-tools';
const URL_B = 'https://review.example.org/acme-vs-rivals';
const day = (n: number) => new Date(Date.UTC(2025, 2, n, 4)).toISOString();

/** Runs feeds one after the other, as the job would, collecting every alert. */
function runAll(feeds: ReturnType<typeof feed>[], start: CitationState = new Map(), settings = S) {
  let state = start;
  const alerts = [];
  const digestNew = [];
  for (const [i, f] of feeds.entries()) {
    const r = detectCitations(state, f, settings, T0 + i * DAY);
    alerts.push(...r.alerts);
    digestNew.push(...r.digestNew);
    state = r.next;
  }
  return { alerts, digestNew, state };
}

describe('detectCitations: lost', () => {
  it('alerts once when a URL is lost, with a versioned key and a button target', () => {
    const r = detectCitations(new Map(), feed([ev('lost', URL_A, day(1))]), S, T0);
    expect(r.alerts).toHaveLength(1);
    const a = r.alerts[0]!;
    expect(a.kind).toBe('citation_lost');
    expect(a.brandId).toBe(BRAND.id);
    expect(a.brandName).toBe(BRAND.name);
    expect(a.key).toBe(`citation_lost:${BRAND.id}:${URL_A}:v1@${Date.parse(day(1))}`);
    expect(a.before).toBe('cited');
    expect(a.after).toBe('not cited');
    expect(a.whyItMatters).not.toBe('');
    expect(a.whatToDo).not.toBe('');
    // The feed over the window it was read from: the fixture's snapshots are 7 days apart.
    expect(a.open).toEqual({ view: 'citations-feed', params: { url: URL_A, 'days-back': '7' } });
    expect(r.changed).toEqual([URL_A]);
  });

  it('lost → new → lost alerts twice, with different keys', () => {
    const { alerts, digestNew } = runAll([
      feed([ev('lost', URL_A, day(1))]),
      feed([ev('new', URL_A, day(2))]),
      feed([ev('lost', URL_A, day(3))]),
    ]);
    expect(alerts.map((a) => a.kind)).toEqual(['citation_lost', 'citation_lost']);
    expect(new Set(alerts.map((a) => a.key)).size).toBe(2);
    expect(digestNew.map((e) => e.url)).toEqual([URL_A]);
  });

  it('lost → new → lost within one feed also alerts twice', () => {
    const r = detectCitations(
      new Map(),
      feed([ev('lost', URL_A, day(3)), ev('lost', URL_A, day(1)), ev('new', URL_A, day(2))]),
      S,
      T0,
    );
    expect(r.alerts).toHaveLength(2);
    expect(r.next.get(URL_A)!.presence).toBe('lost');
  });

  it('the same loss seen in seven daily 7-day feeds alerts once', () => {
    const loss = ev('lost', URL_A, day(1));
    const feeds = Array.from({ length: 7 }, (_, i) => feed([loss], `2025-03-0${i + 1}`));
    expect(runAll(feeds).alerts).toHaveLength(1);
  });

  it('a loss re-listed with the snapshot date as its timestamp still alerts once', () => {
    const feeds = Array.from({ length: 7 }, (_, i) => feed([ev('lost', URL_A, day(i + 1))]));
    expect(runAll(feeds).alerts).toHaveLength(1);
  });

  it('an old loss re-listed after the URL came back does not flip it again', () => {
    const { alerts, state } = runAll([
      feed([ev('lost', URL_A, day(1))]),
      feed([ev('lost', URL_A, day(1)), ev('new', URL_A, day(3))]),
      feed([ev('lost', URL_A, day(1)), ev('new', URL_A, day(3))]),
    ]);
    expect(alerts).toHaveLength(1);
    expect(state.get(URL_A)!.presence).toBe('present');
  });

  it('rerunning the same feed produces nothing and changes nothing', () => {
    const f = feed([
      ev('lost', URL_A, day(1)),
      ev('competitor_appeared', URL_B, day(1), { competitor: 'Rival' }),
    ]);
    const first = detectCitations(new Map(), f, S, T0);
    const again = detectCitations(first.next, f, S, T0 + 1000);
    expect(first.alerts).toHaveLength(2);
    expect(again.alerts).toEqual([]);
    expect(again.digestNew).toEqual([]);
    expect(again.changed).toEqual([]);
  });

  it('does not alert on lost when lost is not among the alerting events, but tracks it', () => {
    const settings = { ...S, events: ['competitor' as const, 'sentiment' as const] };
    const r = detectCitations(new Map(), feed([ev('lost', URL_A, day(1))]), settings, T0);
    expect(r.alerts).toEqual([]);
    expect(r.next.get(URL_A)!.presence).toBe('lost');
  });

  it('state forgotten and baselined again never reuses an earlier key', () => {
    const first = detectCitations(new Map(), feed([ev('lost', URL_A, day(1))]), S, T0).alerts[0]!;
    // Unsubscribed, state dropped; subscribed again later and URL_A, version 1 again, is lost.
    const base = baselineCitations(feed([ev('new', URL_B, day(5))]));
    const again = detectCitations(base, feed([ev('lost', URL_A, day(6))]), S, T0).alerts[0]!;
    expect(again.key).not.toBe(first.key);
  });

  it('never mutates the previous state', () => {
    const prev = detectCitations(new Map(), feed([ev('new', URL_A, day(1))]), S, T0).next;
    const snapshot = JSON.stringify([...prev]);
    detectCitations(prev, feed([ev('lost', URL_A, day(2))]), S, T0);
    expect(JSON.stringify([...prev])).toBe(snapshot);
  });
});

describe('detectCitations: new', () => {
  it('sends new URLs to the digest, never to alerts, once', () => {
    const f = feed([ev('new', URL_A, day(1)), ev('new', URL_B, day(1))]);
    const first = detectCitations(new Map(), f, S, T0);
    expect(first.alerts).toEqual([]);
    expect(first.digestNew.map((e) => e.url)).toEqual([URL_A, URL_B]);
    expect(detectCitations(first.next, f, S, T0).digestNew).toEqual([]);
  });
});

describe('detectCitations: competitor_appeared', () => {
  it('alerts once per (url, competitor)', () => {
    const { alerts } = runAll([
      feed([ev('competitor_appeared', URL_A, day(1), { competitor: 'Rival' })]),
      feed([ev('competitor_appeared', URL_A, day(2), { competitor: 'Rival' })]),
      feed([ev('competitor_appeared', URL_A, day(3), { competitor: 'Other' })]),
      feed([ev('competitor_appeared', URL_B, day(3), { competitor: 'Rival' })]),
      feed([ev('competitor_appeared', URL_A, day(4), { competitor: 'Other' })]),
    ]);
    expect(alerts.map((a) => a.key.replace(/@\d+$/, ''))).toEqual([
      `citation_competitor:${BRAND.id}:${URL_A}:Rival`,
      `citation_competitor:${BRAND.id}:${URL_A}:Other`,
      `citation_competitor:${BRAND.id}:${URL_B}:Rival`,
    ]);
    expect(alerts[0]!.title).toContain('Rival');
  });

  it('an event without a competitor name alerts once as "a competitor"', () => {
    const { alerts } = runAll([
      feed([ev('competitor_appeared', URL_A, day(1))]),
      feed([ev('competitor_appeared', URL_A, day(2))]),
    ]);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.title).toMatch(/^A competitor/);
  });
});

describe('detectCitations: sentiment_changed', () => {
  const change = (from: number, to: number, d: number) =>
    ev('sentiment_changed', URL_A, day(d), { prev_sentiment: from, sentiment: to });

  it('alerts when sentiment falls by the threshold or more', () => {
    expect(detectCitations(new Map(), feed([change(80, 60, 1)]), S, T0).alerts).toHaveLength(1);
    expect(detectCitations(new Map(), feed([change(80, 61, 1)]), S, T0).alerts).toHaveLength(0);
    expect(detectCitations(new Map(), feed([change(40, 90, 1)]), S, T0).alerts).toHaveLength(0);
  });

  it('carries before and after values, the earlier one with the feed’s earlier snapshot day', () => {
    const a = detectCitations(new Map(), feed([change(80, 55, 1)], '2025-03-01', '2025-02-28'), S, T0)
      .alerts[0]!;
    expect(a.kind).toBe('citation_sentiment');
    expect([a.before, a.after]).toEqual(['80/100 on Feb 28, 2025', '55/100']);
    expect(a.whatChanged).toContain('fell from 80/100 on Feb 28, 2025 to 55/100 on Mar 1, 2025.');
  });

  it('opens the change feed over the window of the feed it was read from', () => {
    const opened = (current: string, previous: string) =>
      detectCitations(new Map(), feed([change(80, 55, 1)], current, previous), S, T0).alerts[0]!.open;
    expect(opened('2025-03-01', '2025-02-28').params).toEqual({ url: URL_A, 'days-back': '1' });
    expect(opened('2025-03-01', '2025-01-30').params).toEqual({ url: URL_A, 'days-back': '30' });
    // Beyond what the view can ask for, or no window at all: the view's default.
    expect(opened('2025-03-01', '2025-01-01').params).toEqual({ url: URL_A });
    expect(opened('2025-03-01', 'yesterday').params).toEqual({ url: URL_A });
  });

  it('names no day the feed does not give as a date', () => {
    const hostile = feed([change(80, 55, 1)], '<!here> soon', 'x'.repeat(5000));
    const a = detectCitations(new Map(), hostile, S, T0).alerts[0]!;
    expect(a.before).toBe('80/100');
    // The event's own time stands in for a missing current day.
    expect(a.whatChanged).toContain('fell from 80/100 to 55/100 on Mar 1, 2025.');
  });

  it('honours a per-subscription threshold', () => {
    const settings = { ...S, sentimentDrop: 10 };
    expect(detectCitations(new Map(), feed([change(80, 69, 1)]), settings, T0).alerts).toHaveLength(1);
  });

  it('alerts once per (url, sentiment value) across repeated feeds', () => {
    const { alerts } = runAll([
      feed([change(80, 50, 1)]),
      feed([change(80, 50, 2)]),
      feed([change(80, 50, 3)]),
    ]);
    expect(alerts).toHaveLength(1);
  });

  it('alerts again when sentiment recovers and falls again', () => {
    const { alerts } = runAll([
      feed([change(80, 50, 1)]),
      feed([change(50, 80, 2)]),
      feed([change(80, 50, 3)]),
    ]);
    expect(alerts).toHaveLength(2);
  });

  it('uses the last known sentiment when the event has no prev_sentiment', () => {
    const prev = detectCitations(new Map(), feed([ev('new', URL_A, day(1), { sentiment: 85 })]), S, T0).next;
    const r = detectCitations(prev, feed([ev('sentiment_changed', URL_A, day(2), { sentiment: 60 })]), S, T0);
    expect(r.alerts).toHaveLength(1);
    // Measured from the state, so from the day the state last took a value.
    expect(r.alerts[0]!.before).toBe('85/100 on Mar 1, 2025');
  });

  it('names no day for a stored time no date can hold', () => {
    const prev: CitationState = new Map([
      [
        URL_A,
        {
          presence: 'present',
          presenceAtMs: 1e20,
          sentiment: 85,
          sentimentAtMs: null,
          competitors: [],
          version: 1,
          lastEvent: 'new',
        },
      ],
    ]);
    const r = detectCitations(prev, feed([ev('sentiment_changed', URL_A, day(2), { sentiment: 60 })]), S, T0);
    expect(r.alerts[0]!.before).toBe('85/100');
  });
});

describe('baselineCitations', () => {
  it('records everything silently so the first run alerts only on later changes', () => {
    const initial = feed([
      ev('lost', URL_A, day(1)),
      ev('competitor_appeared', URL_B, day(1), { competitor: 'Rival' }),
      ev('sentiment_changed', URL_B, day(1), { prev_sentiment: 90, sentiment: 40 }),
    ]);
    const base = baselineCitations(initial);
    expect(base.get(URL_A)!.presence).toBe('lost');
    const firstRun = detectCitations(base, initial, S, T0);
    expect(firstRun.alerts).toEqual([]);
    const later = detectCitations(
      firstRun.next,
      feed([ev('new', URL_A, day(2)), ev('lost', URL_A, day(3))]),
      S,
      T0,
    );
    expect(later.alerts.map((a) => a.kind)).toEqual(['citation_lost']);
  });

  it('keeps what an existing state knows', () => {
    const known = detectCitations(new Map(), feed([ev('lost', URL_A, day(1))]), S, T0).next;
    const base = baselineCitations(feed([ev('new', URL_B, day(2))]), known);
    expect([...base.keys()].sort()).toEqual([URL_A, URL_B].sort());
  });
});

describe('detectCitations: properties', () => {
  const arbEvent = fc.record({
    type: fc.constantFrom('new', 'lost', 'sentiment_changed', 'competitor_appeared', 'mystery'),
    url: fc.constantFrom(URL_A, URL_B, 'https://c.example/x'),
    dayN: fc.integer({ min: 1, max: 9 }),
    sentiment: fc.integer({ min: 0, max: 100 }),
    prev: fc.integer({ min: 0, max: 100 }),
    competitor: fc.constantFrom('Rival', 'Other', null),
  });
  const toEvent = (e: {
    type: string;
    url: string;
    dayN: number;
    sentiment: number;
    prev: number;
    competitor: string | null;
  }) =>
    ev(e.type, e.url, day(e.dayN), {
      sentiment: e.sentiment,
      prev_sentiment: e.prev,
      competitor: e.competitor,
    });

  it('replaying any feed on its own result alerts nothing (idempotent)', () => {
    fc.assert(
      fc.property(fc.array(arbEvent, { maxLength: 30 }), (events) => {
        const f = feed(events.map(toEvent));
        const once = detectCitations(new Map(), f, S, T0);
        const twice = detectCitations(once.next, f, S, T0);
        expect(twice.alerts).toEqual([]);
        expect(twice.changed).toEqual([]);
      }),
    );
  });

  it('alert keys are unique across any sequence of feeds', () => {
    fc.assert(
      fc.property(fc.array(fc.array(arbEvent, { maxLength: 10 }), { maxLength: 8 }), (feeds) => {
        const { alerts } = runAll(feeds.map((evs) => feed(evs.map(toEvent))));
        expect(new Set(alerts.map((a) => a.key)).size).toBe(alerts.length);
      }),
    );
  });
});
