/**
 * "A model stopped citing you": the brand's cited pages counted per AI model per day, from
 * the citation list's `search_model` and `date`, and one alert when a model that cited the
 * brand on most of the last 7 days cites it on none of the last two snapshots; one recovery
 * notice when it cites the brand again.
 *
 * The list shows the citations of the current snapshot (each with its date), so the daily
 * counts build up run by run and are kept in the brand's state. A day whose list was cut
 * short (more pages than the job reads) is marked incomplete: a model missing from half a
 * list has not stopped, so such a day never counts as "none".
 *
 * The state also keeps which models cited each URL over the days kept, so a page lost in
 * the feed can be traced to the model that cited it (folding, fold-alerts.ts).
 * Pure: no I/O; the job fetches the list and stores the state.
 */

import { dayText } from '../figures/day-text.js';
import { countFigure, figureWords } from '../figures/glossary.js';
import { countText } from '../figures/number-text.js';
import { keyPart } from './key-part.js';
import type { Alert, BrandRef } from './types.js';

/** One snapshot day's cited pages per model. */
export interface ModelDay {
  /** YYYY-MM-DD as the list reports it. */
  date: string;
  /** False when the list was cut short: a model absent that day may still have cited the brand. */
  complete: boolean;
  /** Model → distinct cited URLs that day. */
  counts: Record<string, number>;
}

export interface ModelCitationState {
  /** Ascending by date, the last KEEP_DAYS snapshots. */
  days: ModelDay[];
  /** Models currently reported as stopped, with the episode their alert carried. */
  stopped: Record<string, { episode: number; since: string }>;
  /** Stop episodes per model: part of the alert keys so each episode has its own. */
  episodes: Record<string, number>;
  /**
   * URL → model → the last day that model cited it, over the days kept: which model a lost
   * page came from (a page leaves the list the day its model stops citing it, a day or more
   * before the model counts as stopped).
   */
  cites: Record<string, Record<string, string>>;
}

export const INITIAL_MODEL_STATE: ModelCitationState = { days: [], stopped: {}, episodes: {}, cites: {} };

/** Days the "most of the last 7 days" test looks at. */
const WINDOW_DAYS = 7;
/** Of those, on how many a model must have cited the brand to count as a regular. */
const REGULAR_DAYS = 4;
/** Cited pages a day, on average before the silent snapshots, that make a model a regular. */
const MIN_DAILY_PAGES = 2.5;
/** Snapshots with none before a regular counts as stopped. */
const SILENT_SNAPSHOTS = 2;
const KEEP_DAYS = WINDOW_DAYS + SILENT_SNAPSHOTS;

export interface ListedCitation {
  url: string;
  search_model?: string | null | undefined;
  date: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Cited pages per model per day: distinct URLs, a citation without a model or a date is skipped. */
export function countByModel(citations: readonly ListedCitation[]): Map<string, Map<string, number>> {
  const urls = new Map<string, Map<string, Set<string>>>();
  for (const c of citations) {
    const model = c.search_model?.trim();
    if (!model || !DATE.test(c.date)) continue;
    const day = urls.get(c.date) ?? new Map<string, Set<string>>();
    urls.set(c.date, day);
    const set = day.get(model) ?? new Set<string>();
    day.set(model, set);
    set.add(c.url);
  }
  const out = new Map<string, Map<string, number>>();
  for (const [date, models] of urls) {
    out.set(date, new Map([...models].map(([m, s]) => [m, s.size])));
  }
  return out;
}

/**
 * The state with one fetched list folded in: its days replace the same days stored (a later
 * list of a day is the fuller one), older days are dropped past KEEP_DAYS.
 */
export function recordList(
  prev: ModelCitationState,
  citations: readonly ListedCitation[],
  complete: boolean,
): ModelCitationState {
  const counted = countByModel(citations);
  if (counted.size === 0 && citations.length > 0) return prev;
  const byDate = new Map(prev.days.map((d) => [d.date, d]));
  for (const [date, models] of counted) {
    byDate.set(date, { date, complete, counts: Object.fromEntries(models) });
  }
  const days = [...byDate.values()].sort((a, b) => (a.date < b.date ? -1 : 1)).slice(-KEEP_DAYS);
  return { ...prev, days, cites: mergeCites(prev.cites, citations, days[0]?.date ?? '') };
}

/** `cites` with this list's citations added and entries older than `oldest` dropped. */
function mergeCites(
  prev: ModelCitationState['cites'],
  citations: readonly ListedCitation[],
  oldest: string,
): ModelCitationState['cites'] {
  const next: ModelCitationState['cites'] = {};
  for (const [url, models] of Object.entries(prev)) {
    const kept = Object.entries(models).filter(([, date]) => date >= oldest);
    if (kept.length > 0) next[url] = Object.fromEntries(kept);
  }
  for (const c of citations) {
    const model = c.search_model?.trim();
    if (!model || !DATE.test(c.date)) continue;
    const models = next[c.url] ?? {};
    next[c.url] = models;
    const seen = models[model];
    if (seen === undefined || seen < c.date) models[model] = c.date;
  }
  return next;
}

/** The models that cited `url` in the days the state keeps ([] when none). */
export function modelsOfUrl(state: ModelCitationState, url: string): readonly string[] {
  return Object.keys(state.cites[url] ?? {});
}

interface Judgement {
  stoppedNow: boolean;
  /** The first of the silent snapshots' dates. */
  firstSilent: string;
  /** The last day it did cite, and how many pages (for "11 a day before"). */
  lastCited: { date: string; count: number } | null;
}

/** Whether `model` is a regular that cites nothing in the last two (complete) snapshots. */
function judge(days: readonly ModelDay[], model: string): Judgement {
  const silent = days.slice(-SILENT_SNAPSHOTS);
  const before = days.slice(0, -SILENT_SNAPSHOTS);
  const lastCitedDay = [...before].reverse().find((d) => (d.counts[model] ?? 0) > 0);
  const lastCited = lastCitedDay ? { date: lastCitedDay.date, count: lastCitedDay.counts[model]! } : null;
  const firstSilent = silent[0]?.date ?? '';
  if (silent.length < SILENT_SNAPSHOTS || !silent.every((d) => d.complete && !d.counts[model])) {
    return { stoppedNow: false, firstSilent, lastCited };
  }
  // "Most of the last 7 days": the 7 calendar days ending with the newest snapshot; a day
  // without a snapshot counts as not cited.
  const newest = Date.parse(days.at(-1)!.date);
  const from = newest - (WINDOW_DAYS - 1) * 86_400_000;
  const window = days.filter((d) => Date.parse(d.date) >= from);
  const citedDays = window.filter((d) => (d.counts[model] ?? 0) > 0).length;
  // Two silent days are news only from a model that cites enough pages a day that silence
  // by chance is rare: at MIN_DAILY_PAGES a day, two empty days come by chance about once in
  // 150 (e^-5). bench/model-quality.ts measured the rule without it: 11 % precision.
  const pages = before.reduce((n, d) => n + (d.counts[model] ?? 0), 0);
  const steady = before.length > 0 && pages / before.length >= MIN_DAILY_PAGES;
  return { stoppedNow: citedDays >= REGULAR_DAYS && steady, firstSilent, lastCited };
}

interface ModelDetection {
  alerts: Alert[];
  next: ModelCitationState;
}

function stoppedAlert(brand: BrandRef, model: string, episode: number, j: Judgement, nowMs: number): Alert {
  const last = j.lastCited;
  const dayBefore = last !== null && Date.parse(j.firstSilent) - Date.parse(last.date) === 86_400_000;
  const when = last === null ? '' : dayBefore ? 'the day before' : `on ${dayText(last.date)}`;
  const before = last ? `, ${countText(last.count)} ${when}` : '';
  return {
    kind: 'model_stopped',
    brandId: brand.id,
    brandName: brand.name,
    key: `model_stopped:${brand.id}:${keyPart(model)}:e${episode}`,
    title: `${model} stopped citing ${brand.name}`,
    whatChanged: `${model} stopped citing ${brand.name}: 0 ${figureWords('citedPages')} in the last ${SILENT_SNAPSHOTS} days${before}. Other AI models are judged separately.`,
    before: last ? countFigure('citedPages', last.count) : null,
    after: countFigure('citedPages', 0),
    whyItMatters: `People who ask ${model} no longer see ${brand.name}'s sources in its answers, even if other AI models still cite them.`,
    whatToDo: `Open the citations to see which pages ${model} used to cite, check that its crawler can still reach them, and refresh the pages it relied on.`,
    subject: model,
    open: { view: 'citations-feed' },
    detectedAtMs: nowMs,
    model,
  };
}

function recoveredAlert(
  brand: BrandRef,
  model: string,
  episode: number,
  day: ModelDay,
  nowMs: number,
): Alert {
  const n = day.counts[model] ?? 0;
  return {
    kind: 'model_recovered',
    brandId: brand.id,
    brandName: brand.name,
    key: `model_recovered:${brand.id}:${keyPart(model)}:e${episode}`,
    title: `${model} cites ${brand.name} again`,
    whatChanged: `${model} cites ${brand.name} again: ${countFigure('citedPages', n)} on ${dayText(day.date)}, after none.`,
    before: countFigure('citedPages', 0),
    after: countFigure('citedPages', n),
    whyItMatters: `The gap reported earlier has closed: ${model} uses ${brand.name}'s sources again.`,
    whatToDo: 'Nothing urgent. If you changed something to fix it, note what worked.',
    subject: model,
    open: { view: 'citations-feed' },
    detectedAtMs: nowMs,
    model,
  };
}

/**
 * Alerts for the state after this run's list (`recordList` first). A state change per
 * model: stopped once per episode, recovered once; nothing between.
 */
export function detectModelCitations(
  state: ModelCitationState,
  brand: BrandRef,
  nowMs: number,
): ModelDetection {
  const latest = state.days.at(-1);
  if (!latest) return { alerts: [], next: state };
  const models = new Set(state.days.flatMap((d) => Object.keys(d.counts)));
  for (const m of Object.keys(state.stopped)) models.add(m);
  const alerts: Alert[] = [];
  const stopped = { ...state.stopped };
  const episodes = { ...state.episodes };
  for (const model of [...models].sort()) {
    const open = stopped[model];
    if (open) {
      if ((latest.counts[model] ?? 0) > 0) {
        alerts.push(recoveredAlert(brand, model, open.episode, latest, nowMs));
        delete stopped[model];
      }
      continue;
    }
    const j = judge(state.days, model);
    if (!j.stoppedNow) continue;
    const episode = (episodes[model] ?? 0) + 1;
    episodes[model] = episode;
    stopped[model] = { episode, since: latest.date };
    alerts.push(stoppedAlert(brand, model, episode, j, nowMs));
  }
  if (alerts.length === 0) return { alerts, next: state };
  return { alerts, next: { ...state, stopped, episodes } };
}
