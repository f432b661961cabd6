/**
 * What the detectors produce. An Alert is self-contained: the Block Kit builder renders it
 * without looking anything up, and the delivery layer dedupes on `key`.
 */
export type { AlertEventName, AlertSettings, QuietHours } from './alert-settings.js';

export const alertKinds = [
  // Brand-wide causes first: the alerts they explain are folded under them (fold-alerts.ts).
  'crawler_blocked',
  'model_stopped',
  'citation_lost',
  'citation_competitor',
  'citation_sentiment',
  'crawler_drop',
  'crawler_recovered',
  'model_recovered',
  'ai_pages_threshold',
  'ai_pages_disabled',
] as const;
export type AlertKind = (typeof alertKinds)[number];

/**
 * Conditions that are worth saying once but not worth alerting about every day (docs/alert-semantics.md:
 * no AI Pages entitlement, or AI Pages not set up). They are a separate type so nothing
 * that handles alerts (snooze, grouping, counting) can mistake them for one; the message
 * builder shows them as a quiet context line.
 */
const noteKinds = ['ai_pages_unavailable'] as const;
export type NoteKind = (typeof noteKinds)[number];

/** Drill-in views the buttons open (`vis:open:<view>`). */
export const openViews = ['citations-feed', 'ideas', 'crawler', 'aipages'] as const;
export type OpenView = (typeof openViews)[number];

export interface BrandRef {
  id: string;
  name: string;
}

export interface OpenTarget {
  view: OpenView;
  /** Extra values for the view besides brandId (e.g. `url`); kept short, they ride in a button value. */
  params?: Record<string, string>;
}

export interface Alert {
  kind: AlertKind;
  brandId: string;
  brandName: string;
  /**
   * Stable dedupe key, e.g. `citation_lost:<brand>:<url>:v3@<event ms>`. The same state
   * change always yields the same key; a later change of the same subject yields a new one.
   * Keys carry the event time or billing period as well as the state version, so state
   * that is forgotten and re-baselined (unsubscribe, subscribe again) cannot mint a key an
   * old outbox row still holds.
   */
  key: string;
  /** One line, e.g. "Cited page lost: example.com/pricing". */
  title: string;
  /** What changed, in a sentence. */
  whatChanged: string;
  before: string | null;
  after: string | null;
  whyItMatters: string;
  whatToDo: string;
  /** The subject line when alerts of one kind are listed compactly (URL, crawler, level). */
  subject: string;
  open: OpenTarget;
  detectedAtMs: number;
  /** The competitor a citation_competitor alert is about, when the feed names one. */
  competitor?: string;
  /** The AI model a model_stopped/model_recovered alert is about. */
  model?: string;
  /** The crawlers a crawler_blocked alert names as blocked, or a crawler_drop alert as fallen. */
  crawlers?: string[];
  /**
   * Why it changed, one plain sentence each, built only from data the bot fetched
   * (why-lines.ts); absent when the data says nothing.
   */
  why?: string[];
  /**
   * Alerts this one explains, folded under it in one message (fold-alerts.ts): their keys
   * are part of the message's key, they are not listed as alerts of their own.
   */
  folded?: Alert[];
}

export interface AlertNote {
  kind: NoteKind;
  brandId: string;
  brandName: string;
  key: string;
  text: string;
  reason: 'no_entitlement' | 'not_set_up';
}
