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
import { figureText } from '../figures/glossary.js';
import { counted } from '../figures/plural.js';
import { type AlertSettings, DEFAULT_ALERT_SETTINGS } from './alert-settings.js';
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

/**
 * Event time in ms. An unparseable timestamp falls back to the snapshot date, then to
 * now: the state guards still stop repeated alerts, only stale flips lose protection.
 */
function eventTimeMs(ev: FeedEvent, snapshotMs: number, nowMs: number): number {
  const t = Date.parse(ev.timestamp);
  if (!Number.isNaN(t)) return t;
  return Number.isNaN(snapshotMs) ? nowMs : snapshotMs;
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
    open: { view: 'citations-feed', params: { url: ev.url } },
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
    open: { view: 'citations-feed', params: { url: ev.url } },
    detectedAtMs: ctx.nowMs,
  };
}

function sentimentAlert(
  ctx: Ctx,
  ev: FeedEvent,
  from: number,
  to: number,
  version: number,
  t: number,
): Alert {
  return {
    kind: 'citation_sentiment',
    brandId: ctx.brandId,
    brandName: ctx.brandName,
    key: `citation_sentiment:${ctx.brandId}:${keyPart(ev.url)}:v${version}@${t}`,
    title: `Sentiment fell ${counted(from - to, 'point')} on ${label(ev)}`,
    whatChanged: `The tone toward ${ctx.brandName} on ${ev.url} (${ev.domain}) fell from ${figureText('sentiment', from)} to ${figureText('sentiment', to)}.`,
    before: figureText('sentiment', from),
    after: figureText('sentiment', to),
    whyItMatters:
      'AI models repeat the tone of the pages they cite, so answers about you can turn more negative too.',
    whatToDo:
      'Read the page to see what changed; correct factual errors with the site owner, respond publicly, or strengthen positive sources.',
    subject: `${ev.url}: ${from} → ${to}`,
    open: { view: 'citations-feed', params: { url: ev.url } },
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

function applyFeed(
  prev: CitationState,
  feed: CitationFeedResponse,
  settings: AlertSettings,
  nowMs: number,
  silent: boolean,
): CitationDetection {
  const ctx: Ctx = { brandId: feed.brand.id, brandName: feed.brand.name, settings, nowMs };
  const snapshotMs = feed.current_snapshot_date ? Date.parse(feed.current_snapshot_date) : Number.NaN;
  // A feed repeats a handful of timestamps (one per snapshot) hundreds of times.
  const parsedTimes = new Map<string, number>();
  const timeOf = (ev: FeedEvent) => {
    let t = parsedTimes.get(ev.timestamp);
    if (t === undefined) {
      t = eventTimeMs(ev, snapshotMs, nowMs);
      parsedTimes.set(ev.timestamp, t);
    }
    return t;
  };

  // Most of a feed repeats what earlier runs already applied (a 7-day window re-lists a
  // week of changes every day). Those events are dropped before sorting; what is left is
  // usually a few percent of the feed.
  const fresh: { ev: FeedEvent; i: number; t: number }[] = [];
  for (let i = 0; i < feed.events.length; i++) {
    const ev = feed.events[i]!;
    const t = timeOf(ev);
    const before = prev.get(ev.url);
    if (before) {
      switch (ev.event_type) {
        case 'new':
        case 'lost':
          if (before.presenceAtMs !== null && t <= before.presenceAtMs) continue;
          break;
        case 'sentiment_changed':
          if (before.sentimentAtMs !== null && t <= before.sentimentAtMs) continue;
          break;
        case 'competitor_appeared':
          if (before.competitors.includes(competitorName(ev))) continue;
          break;
        default:
          continue;
      }
    }
    fresh.push({ ev, i, t });
  }
  // Stable sort by time: within one feed the order of changes decides the state.
  fresh.sort((a, b) => a.t - b.t || a.i - b.i);

  // Copied on the first change only; a run that changes nothing returns `prev` itself.
  let next: CitationState | null = null;
  const changed = new Set<string>();
  const alerts: Alert[] = [];
  const digestNew: FeedEvent[] = [];
  const alertOn = new Set(settings.events);

  for (const { ev, t } of fresh) {
    const before = prev.get(ev.url);
    let cur = (next ?? prev).get(ev.url) ?? emptyUrlState();
    // Guards compare with the state as it was before this run, so several changes of one
    // URL within a single feed all apply in order.
    const presenceFresh = before?.presenceAtMs == null || t > before.presenceAtMs;
    const sentimentFresh = before?.sentimentAtMs == null || t > before.sentimentAtMs;
    const update = (patch: Partial<UrlCitationState>) => {
      cur = { ...cur, ...patch, lastEvent: ev.event_type };
      next ??= copyState(prev);
      next.set(ev.url, cur);
      changed.add(ev.url);
    };

    switch (ev.event_type) {
      case 'new': {
        if (!presenceFresh) break;
        if (cur.presence === 'present') {
          if (cur.presenceAtMs === null || t > cur.presenceAtMs) update({ presenceAtMs: t });
          break;
        }
        update({
          presence: 'present',
          presenceAtMs: t,
          sentiment: ev.sentiment ?? cur.sentiment,
          version: cur.version + 1,
        });
        if (!silent) digestNew.push(ev);
        break;
      }
      case 'lost': {
        if (!presenceFresh) break;
        if (cur.presence === 'lost') {
          if (cur.presenceAtMs === null || t > cur.presenceAtMs) update({ presenceAtMs: t });
          break;
        }
        update({ presence: 'lost', presenceAtMs: t, version: cur.version + 1 });
        if (!silent && alertOn.has('lost')) alerts.push(lostAlert(ctx, ev, cur.version, t));
        break;
      }
      case 'competitor_appeared': {
        const competitor = competitorName(ev);
        if (cur.competitors.includes(competitor)) break;
        update({ competitors: [...cur.competitors, competitor], version: cur.version + 1 });
        if (!silent && alertOn.has('competitor')) alerts.push(competitorAlert(ctx, ev, competitor, t));
        break;
      }
      case 'sentiment_changed': {
        if (!sentimentFresh || ev.sentiment == null) break;
        if (cur.sentiment === ev.sentiment) {
          if (cur.sentimentAtMs === null || t > cur.sentimentAtMs) update({ sentimentAtMs: t });
          break;
        }
        const from = ev.prev_sentiment ?? cur.sentiment;
        update({ sentiment: ev.sentiment, sentimentAtMs: t, version: cur.version + 1 });
        if (
          !silent &&
          alertOn.has('sentiment') &&
          from !== null &&
          from - ev.sentiment >= settings.sentimentDrop
        ) {
          alerts.push(sentimentAlert(ctx, ev, from, ev.sentiment, cur.version, t));
        }
        break;
      }
      default:
        // An event type this version does not know: ignored rather than guessed at.
        break;
    }
  }
  return { alerts, digestNew, next: next ?? prev, changed: [...changed] };
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
