/**
 * "Why it changed" lines, built only from data the bot fetched and handed in here. Each
 * builder takes the data as it came back, or null when it was not fetched (over the run's
 * bound, a failed call); null, or data that says nothing about the subject, gives no line:
 * an alert never guesses at a cause. Pure: the job fetches, these only read.
 */

import { timeText } from '../figures/day-text.js';
import { figureWords } from '../figures/glossary.js';
import { countText, percentChange, signedPercentText } from '../figures/number-text.js';
import { nameList } from '../figures/plural.js';

/** One AI crawler visit to a page, from the crawler data. */
export interface PageVisit {
  crawler: string | null;
  visitedAtMs: number;
  statusCode: number | null;
}

/** The crawler visits to one page over `days` days, as the crawler data lists them. */
export interface PageVisits {
  days: number;
  visits: readonly PageVisit[];
}

/**
 * A lost citation of the brand's own page: do AI crawlers still reach it? The latest visit
 * and the status code the site answered it with; no visits in the period is said as such.
 */
export function ownPageWhy(data: PageVisits | null): string[] {
  if (data === null) return [];
  const valid = data.visits.filter((v) => Number.isFinite(v.visitedAtMs));
  if (valid.length === 0) {
    return [`The crawler data shows no AI crawler visit to this page in the last ${data.days} days.`];
  }
  const last = valid.reduce((a, b) => (b.visitedAtMs > a.visitedAtMs ? b : a));
  const who = last.crawler ? `by ${last.crawler} ` : '';
  const when = `on ${timeText(last.visitedAtMs)}`;
  if (last.statusCode === null) return [`AI crawlers still reach this page: last visit ${who}${when}.`];
  if (last.statusCode >= 400) {
    return [
      `AI crawlers cannot read this page: the last visit, ${who}${when}, got an error (status ${last.statusCode}).`,
    ];
  }
  return [
    `AI crawlers still reach this page: last visit ${who}${when}, answered normally (status ${last.statusCode}).`,
  ];
}

/** The sources view of one domain, as much of it as the lines use. */
export interface DomainSources {
  domain: string;
  competitorsOnDomain: readonly string[];
  pages: readonly { url: string; competitors: readonly string[] }[];
}

/**
 * A lost citation of a third-party page: the competitors now on that domain (the page's own
 * when the sources view lists it). No competitors there: no line, since that explains nothing.
 */
export function thirdPartyWhy(url: string, data: DomainSources | null): string[] {
  if (data === null) return [];
  const page = data.pages.find((p) => p.url === url);
  const onPage = [...new Set(page?.competitors ?? [])].filter((c) => c.trim() !== '');
  if (onPage.length > 0) {
    return [`Competitors now on this page: ${nameList(onPage)} (from the sources of ${data.domain}).`];
  }
  const onDomain = [...new Set(data.competitorsOnDomain)].filter((c) => c.trim() !== '');
  if (onDomain.length === 0) return [];
  return [`Competitors now on ${data.domain}: ${nameList(onDomain)}.`];
}

/** One page's crawler visits in the two periods a crawler fall compares. */
export interface PageVisitCounts {
  url: string;
  previous: number;
  current: number;
}

/** At most this many pages named in a crawler fall's line. */
const FALL_PAGES_NAMED = 3;

/**
 * A crawler fall: the pages that lost most visits (the crawlers are already named in the
 * alert). No page fell, or no page data: no line.
 */
export function crawlerFallWhy(pages: readonly PageVisitCounts[] | null): string[] {
  if (pages === null) return [];
  const fell = pages
    .filter((p) => p.current < p.previous)
    .sort((a, b) => b.previous - b.current - (a.previous - a.current) || (a.url < b.url ? -1 : 1))
    .slice(0, FALL_PAGES_NAMED);
  if (fell.length === 0) return [];
  const parts = fell.map(
    (p) =>
      `${p.url} ${countText(p.previous)} → ${countText(p.current)}${p.previous > 0 ? ` (${signedPercentText(percentChange(p.previous, p.current))})` : ''}`,
  );
  return [`Pages with the largest fall in ${figureWords('aiCrawlerVisits')}: ${parts.join('; ')}.`];
}
