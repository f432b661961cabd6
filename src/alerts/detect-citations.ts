/**
 * Citation feed → alerts, with a per-URL state machine (docs/alert-semantics.md).
 *
 * The feed is a diff between two snapshots, and the job asks for a `days_back` that covers
 * the time since its last successful run, so one change shows up in several feeds (a loss
 * is listed in every 7-day feed for a week). An alert is therefore about a change of the
 * URL's *state*, not about an event: it fires when the state changes and never again until
 * it changes again (lost → new → lost alerts twice; the same loss in seven feeds, once).
 *
 * Two guards make repeated and overlapping feeds harmless:
 * - an event only applies when its timestamp is later than the last one applied to the
 *   same track (presence or sentiment) in an earlier run, so an old `lost` re-listed after
 *   a newer `new` cannot flip the URL back;
 * - an event that restates the current state (`lost` while lost, the same sentiment value)
 *   changes nothing, which covers feeds whose timestamps move with the snapshot date.
 */

import type { CitationFeedResponse, FeedEvent } from '../api/schemas/citations.js';
import { dayText } from '../figures/day-text.js';
import { figureText } from '../figures/glossary.js';
import { counted } from '../figures/plural.js';
import { timestampParser } from '../timestamp-parser.js';
import { calendarDayOf, utcDay } from '../utc-days.js';
import { type AlertSettings, DEFAULT_ALERT_SETTINGS } from './alert-settings.js';
import { changeFeedWindow } from './change-feed-window.js';
import { keyPart } from './key-part.js';
import type { Alert } from './types.js';

export interface UrlCitationState {
  presence: 'present' | 'lost' | 'unknown';
  /** Timestamp (ms) of the last `new`/`lost` applied. */
  presenceAtMs: number | null;
  /** Last known sentiment 0–100. */
  sentiment: number | null;
  /** Timestamp (ms) of the last `sentiment_changed` applied. */
  sentimentAtMs: number | null;
  /** Competitors already reported for this URL (once per url and competitor). */
  competitors: string[];
  /** Bumped on every state change; part of the alert keys. */
  version: number;
  lastEvent: string | null;
}

/** Per-URL state of one brand, keyed by URL. */
export type CitationState = Map<string, UrlCitationState>;

export interface CitationDetection {
  alerts: Alert[];
  /** `new` events that made a URL present again: digest material, never alerts. */
  digestNew: FeedEvent[];
  /** The state after this run; `prev` itself when nothing changed. */
  next: CitationState;
  /** URLs whose state entry changed, so the store writes only those. */
  changed: string[];
}

const UNKNOWN_COMPETITOR = 'unknown competitor';

function emptyUrlState(): UrlCitationState {
  return {
    presence: 'unknown',
    presenceAtMs: null,
    sentiment: null,
    sentimentAtMs: null,
    competitors: [],
    version: 0,
    lastEvent: null,
  };
}

function competitorName(ev: FeedEvent): string {
  return ev.competitor?.trim() || UNKNOWN_COMPETITOR;
}

function label(ev: FeedEvent): string {
  return ev.h1?.trim() ? ev.h1.trim() : ev.url;
}

interface Ctx {
  brandId: string;
  brandName: string;
  settings: AlertSettings;
  nowMs: number;
  /** The feed's two snapshot days: a sentiment alert names the days its two values are from. */
  previousDate: string | null;
  currentDate: string | null;
  /** The change feed's window of this feed (change-feed-window.ts): the alerts' button opens it there. */
  window: Record<string, string>;
}

/** A sentiment value and the day it was seen on (null when unknown). */
interface DatedSentiment {
  value: number;
  date: string | null;
}

/** "77/100 on Nov 28, 2026", or the value alone when its day is unknown. */
function datedSentimentText(s: DatedSentiment): string {
  const value = figureText('sentiment', s.value);
  return s.date === null ? value : `${value} on ${dayText(s.date)}`;
}

function lostAlert(ctx: Ctx, ev: FeedEvent, version: number, t: number): Alert {
  return {
    kind: 'citation_lost',
    brandId: ctx.brandId,
    brandName: ctx.brandName,
    key: `citation_lost:${ctx.brandId}:${keyPart(ev.url)}:v${version}@${t}`,
    title: `Cited page lost: ${label(ev)}`,
    whatChanged: `AI answers no longer cite ${ev.url} (${ev.domain}) when they talk about ${ctx.brandName}.`,
    before: 'cited',
    after: 'not cited',
    whyItMatters:
      'Pages that AI models cite are how your brand reaches their answers; each cited page lost is one less place an answer can mention you.',
    whatToDo:
      'Open the change feed to see when it dropped out, check that the page still loads and still answers the prompts it was cited for, then refresh it.',
    subject: ev.url,
    open: { view: 'citations-feed', params: { url: ev.url, ...ctx.window } },
    detectedAtMs: ctx.nowMs,
  };
}

function competitorAlert(ctx: Ctx, ev: FeedEvent, competitor: string, t: number): Alert {
  const who = competitor === UNKNOWN_COMPETITOR ? 'A competitor' : competitor;
  return {
    kind: 'citation_competitor',
    brandId: ctx.brandId,
    brandName: ctx.brandName,
    key: `citation_competitor:${ctx.brandId}:${keyPart(ev.url)}:${keyPart(competitor)}@${t}`,
    title: `${who} appeared on ${label(ev)}`,
    whatChanged: `${who} now appears on ${ev.url} (${ev.domain}), a page AI models cite for ${ctx.brandName}.`,
    before: 'not on this page',
    after:
      competitor === UNKNOWN_COMPETITOR ? 'a competitor is on this page' : `${competitor} is on this page`,
    // The same words for every competitor alert of a brand, so a grouped message can say
    // them once for all of them; the competitor is named in the title and what changed.
    whyItMatters: `Answers built from a page a competitor appears on can recommend them next to or instead of ${ctx.brandName}.`,
    whatToDo:
      'Open the feed and read the page; ask the site owner to cover you fairly, or publish a comparison page that makes your case.',
    subject: `${ev.url} (${who})`,
    ...(competitor === UNKNOWN_COMPETITOR ? {} : { competitor }),
    open: { view: 'citations-feed', params: { url: ev.url, ...ctx.window } },
    detectedAtMs: ctx.nowMs,
  };
}

/**
 * A fall in sentiment, with the day of each value: the feed's `prev_sentiment` is the
 * earlier snapshot's (a 1-day feed: yesterday's, a 7-day one: a week ago's), so the alert
 * names that day, as the change feed view does, and two screens never show one page's fall
 * as two unexplained numbers.
 */
function sentimentAlert(
  ctx: Ctx,
  ev: FeedEvent,
  from: DatedSentiment,
  to: DatedSentiment,
  version: number,
  t: number,
): Alert {
  return {
    kind: 'citation_sentiment',
    brandId: ctx.brandId,
    brandName: ctx.brandName,
    key: `citation_sentiment:${ctx.brandId}:${keyPart(ev.url)}:v${version}@${t}`,
    title: `Sentiment fell ${counted(from.value - to.value, 'point')} on ${label(ev)}`,
    whatChanged: `The tone toward ${ctx.brandName} on ${ev.url} (${ev.domain}) fell from ${datedSentimentText(from)} to ${datedSentimentText(to)}.`,
    before: datedSentimentText(from),
    after: figureText('sentiment', to.value),
    whyItMatters:
      'AI models repeat the tone of the pages they cite, so answers about you can turn more negative too.',
    whatToDo:
      'Read the page to see what changed; correct factual errors with the site owner, respond publicly, or strengthen positive sources.',
    subject: `${ev.url}: ${from.value} → ${to.value}`,
    open: { view: 'citations-feed', params: { url: ev.url, ...ctx.window } },
    detectedAtMs: ctx.nowMs,
  };
}

/**
 * `new Map(prev)`, about twice as fast: forEach hands over key and value without the
 * [key, value] entry array the Map constructor's iterator allocates per URL.
 */
function copyState(prev: CitationState): CitationState {
  const copy: CitationState = new Map();
  prev.forEach((v, k) => {
    copy.set(k, v);
  });
  return copy;
}

interface TimedEvent {
  ev: FeedEvent;
  /** Its place in the feed: ties in time keep the feed's order. */
  i: number;
  t: number;
}

/**
 * The events `prev` has not seen yet, in time order. Most of a feed repeats what earlier
 * runs already applied (a 7-day window re-lists a week of changes every day); those are
 * dropped before sorting, so what is left is usually a few percent of the feed.
 */
function freshEvents(prev: CitationState, feed: CitationFeedResponse, nowMs: number): TimedEvent[] {
  const snapshotMs = feed.current_snapshot_date ? Date.parse(feed.current_snapshot_date) : Number.NaN;
  // An unparseable timestamp falls back to the snapshot date, then to now: the state
  // guards still stop repeated alerts, only stale flips lose protection.
  const fallbackMs = Number.isNaN(snapshotMs) ? nowMs : snapshotMs;
  // A feed repeats a handful of timestamps (one per snapshot) hundreds of times.
  const parse = timestampParser();
  const timeOf = (ev: FeedEvent) => {
    const t = parse(ev.timestamp);
    return Number.isNaN(t) ? fallbackMs : t;
  };
  const fresh: TimedEvent[] = [];
  for (let i = 0; i < feed.events.length; i++) {
    const ev = feed.events[i]!;
    const t = timeOf(ev);
    const before = prev.get(ev.url);
    if (!before || isNewTo(before, ev, t)) fresh.push({ ev, i, t });
  }
  // Stable sort by time: within one feed the order of changes decides the state.
  return fresh.sort((a, b) => a.t - b.t || a.i - b.i);
}

/** Whether `ev` at `t` is news to a URL's state from before this run. */
function isNewTo(before: UrlCitationState, ev: FeedEvent, t: number): boolean {
  switch (ev.event_type) {
    case 'new':
    case 'lost':
      return before.presenceAtMs === null || t > before.presenceAtMs;
    case 'sentiment_changed':
      return before.sentimentAtMs === null || t > before.sentimentAtMs;
    case 'competitor_appeared':
      return !before.competitors.includes(competitorName(ev));
    default:
      return false;
  }
}

/** One run's work in progress: the state copied on its first change, and what it found. */
interface FeedRun {
  ctx: Ctx;
  prev: CitationState;
  /** Copied on the first change only; a run that changes nothing returns `prev` itself. */
  next: CitationState | null;
  changed: Set<string>;
  alerts: Alert[];
  digestNew: FeedEvent[];
  alertOn: Set<string>;
  silent: boolean;
}

/** Applies one fresh event to its URL's state, noting the alert or digest line it makes. */
// The alerts carry the URL's version after the change (the one `update` writes).
function applyEvent(run: FeedRun, ev: FeedEvent, t: number): void {
  const { ctx, silent, alertOn } = run;
  const before = run.prev.get(ev.url);
  const cur = (run.next ?? run.prev).get(ev.url) ?? emptyUrlState();
  // Guards compare with the state as it was before this run, so several changes of one
  // URL within a single feed all apply in order.
  const presenceFresh = before?.presenceAtMs == null || t > before.presenceAtMs;
  const update = (patch: Partial<UrlCitationState>) => {
    run.next ??= copyState(run.prev);
    run.next.set(ev.url, { ...cur, ...patch, lastEvent: ev.event_type });
    run.changed.add(ev.url);
  };

  switch (ev.event_type) {
    case 'new':
    case 'lost': {
      if (!presenceFresh) break;
      const presence = ev.event_type === 'new' ? 'present' : 'lost';
      if (cur.presence === presence) {
        if (cur.presenceAtMs === null || t > cur.presenceAtMs) update({ presenceAtMs: t });
        break;
      }
      if (presence === 'present') {
        update({
          presence,
          presenceAtMs: t,
          sentiment: ev.sentiment ?? cur.sentiment,
          version: cur.version + 1,
        });
        if (!silent) run.digestNew.push(ev);
      } else {
        update({ presence, presenceAtMs: t, version: cur.version + 1 });
        if (!silent && alertOn.has('lost')) run.alerts.push(lostAlert(ctx, ev, cur.version + 1, t));
      }
      break;
    }
    case 'competitor_appeared': {
      const competitor = competitorName(ev);
      if (cur.competitors.includes(competitor)) break;
      update({ competitors: [...cur.competitors, competitor], version: cur.version + 1 });
      if (!silent && alertOn.has('competitor')) run.alerts.push(competitorAlert(ctx, ev, competitor, t));
      break;
    }
    case 'sentiment_changed':
      applySentiment(run, ev, t, cur, before, update);
      break;
    default:
      // An event type this version does not know: ignored rather than guessed at.
      break;
  }
}

function applySentiment(
  run: FeedRun,
  ev: FeedEvent,
  t: number,
  cur: UrlCitationState,
  before: UrlCitationState | undefined,
  update: (patch: Partial<UrlCitationState>) => void,
): void {
  const sentimentFresh = before?.sentimentAtMs == null || t > before.sentimentAtMs;
  if (!sentimentFresh || ev.sentiment == null) return;
  if (cur.sentiment === ev.sentiment) {
    if (cur.sentimentAtMs === null || t > cur.sentimentAtMs) update({ sentimentAtMs: t });
    return;
  }
  const from = sentimentBefore(run.ctx, ev, cur);
  update({ sentiment: ev.sentiment, sentimentAtMs: t, version: cur.version + 1 });
  const { settings } = run.ctx;
  if (
    !run.silent &&
    run.alertOn.has('sentiment') &&
    from !== null &&
    from.value - ev.sentiment >= settings.sentimentDrop
  ) {
    const to = { value: ev.sentiment, date: run.ctx.currentDate ?? utcDay(t) };
    run.alerts.push(sentimentAlert(run.ctx, ev, from, to, cur.version + 1, t));
  }
}

/**
 * The sentiment a change is measured from: the event's own `prev_sentiment` (the feed's
 * earlier snapshot), else the last value the state knew, on the day it last applied one.
 */
function sentimentBefore(ctx: Ctx, ev: FeedEvent, cur: UrlCitationState): DatedSentiment | null {
  if (ev.prev_sentiment != null) return { value: ev.prev_sentiment, date: ctx.previousDate };
  if (cur.sentiment === null) return null;
  // A stored time is ours, but a day is only named for one a Date can hold.
  const atMs = cur.sentimentAtMs ?? cur.presenceAtMs;
  const known = atMs !== null && !Number.isNaN(new Date(atMs).getTime());
  return { value: cur.sentiment, date: known ? utcDay(atMs) : null };
}

/** The feed's snapshot days, and the window they make. */
function feedDays(feed: CitationFeedResponse): Pick<Ctx, 'previousDate' | 'currentDate' | 'window'> {
  const previousDate = calendarDayOf(feed.previous_snapshot_date);
  const currentDate = calendarDayOf(feed.current_snapshot_date);
  return { previousDate, currentDate, window: changeFeedWindow(previousDate, currentDate) };
}

function applyFeed(
  prev: CitationState,
  feed: CitationFeedResponse,
  settings: AlertSettings,
  nowMs: number,
  silent: boolean,
): CitationDetection {
  const run: FeedRun = {
    ctx: {
      brandId: feed.brand.id,
      brandName: feed.brand.name,
      settings,
      nowMs,
      ...feedDays(feed),
    },
    prev,
    next: null,
    changed: new Set(),
    alerts: [],
    digestNew: [],
    alertOn: new Set(settings.events),
    silent,
  };
  for (const { ev, t } of freshEvents(prev, feed, nowMs)) applyEvent(run, ev, t);
  return { alerts: run.alerts, digestNew: run.digestNew, next: run.next ?? prev, changed: [...run.changed] };
}

/** One run over a fresh feed: alerts for state changes since `prev`. Never mutates `prev`. */
export function detectCitations(
  prev: CitationState,
  feed: CitationFeedResponse,
  settings: AlertSettings,
  nowMs: number,
): CitationDetection {
  return applyFeed(prev, feed, settings, nowMs, false);
}

/**
 * Subscription time: events are baselined silently (docs/alert-semantics.md), so the first run alerts
 * only on what changes after subscribing. Pass the existing state when another channel
 * already watches the brand so nothing it knows is forgotten.
 */
export function baselineCitations(
  feed: CitationFeedResponse,
  prev: CitationState = new Map(),
  /** Only used for events whose timestamp cannot be parsed. */
  nowMs = 0,
): CitationState {
  return applyFeed(prev, feed, DEFAULT_ALERT_SETTINGS, nowMs, true).next;
}
