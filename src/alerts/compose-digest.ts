/**
 * The daily digest for one brand (docs/alert-semantics.md): citations current vs previous with new and
 * lost URLs, top content ideas, crawler visits and change, AI Pages usage. Each section
 * stands alone: an endpoint that failed makes its section "unavailable", never the whole
 * digest, because a digest with three good sections is worth more than none.
 */
import type { CitationFeedResponse, FeedEvent } from '../api/schemas/citations.js';
import type { ContentIdea } from '../api/schemas/content-ideas.js';
import { type AiPagesInput, isAiPagesUnavailable } from './detect-ai-pages.js';
import {
  type CrawlerMover,
  type CrawlerPeriods,
  crawlerChangePct,
  crawlersThatFellMost,
} from './detect-crawler.js';
import type { BrandRef } from './types.js';

/** A section's source failed; `reason` is user-facing text (the job maps errors to it). */
export interface Unavailable {
  status: 'unavailable';
  reason: string;
}
export type Failed = { error: string };

export interface DigestUrl {
  url: string;
  domain: string;
  title: string | null;
  appearances: number | null;
}

export interface DigestCitations {
  status: 'ok';
  current: number;
  previous: number;
  changePct: number | null;
  currentDate: string | null;
  previousDate: string | null;
  newCount: number;
  lostCount: number;
  topNew: DigestUrl[];
  topLost: DigestUrl[];
}

export interface DigestIdea {
  id: string;
  query: string;
  score: number;
  type: string;
  template: string | null;
}

export interface DigestIdeas {
  status: 'ok';
  activeCount: number;
  top: DigestIdea[];
}

export interface DigestCrawler {
  status: 'ok';
  current: number;
  previous: number;
  changePct: number | null;
  start: string;
  end: string;
  topCrawlers: CrawlerMover[];
}

export type DigestAiPages =
  | {
      status: 'ok';
      enabled: boolean;
      percentageUsed: number | null;
      used: number | null;
      limit: number | null;
      resetDate: string | null;
    }
  | { status: 'no_entitlement' }
  | { status: 'not_set_up' };

export interface Digest {
  brandId: string;
  brandName: string;
  /** Local date (subscription time zone) the digest is for, YYYY-MM-DD. */
  date: string;
  /** Sent after its time because the bot was down then (sent once, marked late). */
  late: boolean;
  /** Dedupe key; the delivery layer adds the channel. */
  key: string;
  citations: DigestCitations | Unavailable;
  ideas: DigestIdeas | Unavailable;
  crawler: DigestCrawler | Unavailable;
  aiPages: DigestAiPages | Unavailable;
}

/** How many new and lost pages the digest lists. */
export const DIGEST_URLS = 5;

export interface DigestInput {
  brand: BrandRef;
  date: string;
  late?: boolean;
  /** The citation feed, or the section the citations poll made of it (digestCitationsOf). */
  feed: CitationFeedResponse | DigestCitations | Failed;
  ideas: readonly ContentIdea[] | Failed;
  crawler: CrawlerPeriods | Failed;
  aiPages: AiPagesInput | Failed;
  /** How many URLs / ideas / crawlers to list; ideas default 5, the others 5 and 3. */
  limits?: { urls?: number; ideas?: number; crawlers?: number };
}

const isFailed = (x: unknown): x is Failed =>
  typeof x === 'object' && x !== null && 'error' in x && typeof (x as Failed).error === 'string';

function toUrl(ev: FeedEvent): DigestUrl {
  return {
    url: ev.url,
    domain: ev.domain,
    title: ev.h1?.trim() || null,
    appearances: ev.appearance_count ?? null,
  };
}

function uniqueByUrl(events: FeedEvent[]): FeedEvent[] {
  const seen = new Set<string>();
  return events.filter((e) => {
    if (seen.has(e.url)) return false;
    seen.add(e.url);
    return true;
  });
}

/**
 * The citations section of a feed: its totals, how many pages were new and lost (each URL
 * once), the `limit` new pages cited most and the first `limit` lost ones. The citations
 * poll stores it (with DIGEST_URLS pages) for the next digest instead of the feed itself.
 */
export function digestCitationsOf(feed: CitationFeedResponse, limit = DIGEST_URLS): DigestCitations {
  const news = uniqueByUrl(feed.events.filter((e) => e.event_type === 'new'));
  const lost = uniqueByUrl(feed.events.filter((e) => e.event_type === 'lost'));
  // New URLs cited most often first: they are the wins worth repeating.
  const topNew = [...news]
    .sort((a, b) => (b.appearance_count ?? 0) - (a.appearance_count ?? 0))
    .slice(0, limit);
  return {
    status: 'ok',
    current: feed.total_current,
    previous: feed.total_previous,
    changePct:
      feed.total_previous > 0
        ? ((feed.total_current - feed.total_previous) / feed.total_previous) * 100
        : null,
    currentDate: feed.current_snapshot_date,
    previousDate: feed.previous_snapshot_date,
    newCount: news.length,
    lostCount: lost.length,
    topNew: topNew.map(toUrl),
    topLost: lost.slice(0, limit).map(toUrl),
  };
}

/** The section from a feed, or from a section made earlier (listing at most the pages it kept). */
function citationsSection(source: CitationFeedResponse | DigestCitations, limit: number): DigestCitations {
  if ('events' in source) return digestCitationsOf(source, limit);
  return { ...source, topNew: source.topNew.slice(0, limit), topLost: source.topLost.slice(0, limit) };
}

function ideasSection(ideas: readonly ContentIdea[], limit: number): DigestIdeas {
  const active = ideas.filter((i) => i.status === 'active');
  const top = [...active]
    .sort((a, b) => b.opportunity_score - a.opportunity_score)
    .slice(0, limit)
    .map((i) => ({
      id: i.id,
      query: i.query,
      score: i.opportunity_score,
      type: i.type,
      template: i.recommended_template ?? null,
    }));
  return { status: 'ok', activeCount: active.length, top };
}

function crawlerSection(p: CrawlerPeriods, limit: number): DigestCrawler {
  const change = crawlerChangePct(p);
  // When visits fell, the crawlers that fell most explain it; otherwise the busiest ones.
  const topCrawlers =
    change !== null && change < 0
      ? crawlersThatFellMost(p, limit)
      : Object.entries(p.current.byCrawler)
          .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
          .slice(0, limit)
          .map(([crawler, current]) => ({ crawler, current, previous: p.previous.byCrawler[crawler] ?? 0 }));
  return {
    status: 'ok',
    current: p.current.total,
    previous: p.previous.total,
    changePct: change,
    start: p.current.start,
    end: p.current.end,
    topCrawlers,
  };
}

function aiPagesSection(input: AiPagesInput): DigestAiPages {
  if (isAiPagesUnavailable(input)) return { status: 'no_entitlement' };
  if (input.config === null) return { status: 'not_set_up' };
  const u = input.usage;
  return {
    status: 'ok',
    enabled: input.config.enabled,
    percentageUsed: u?.percentage_used ?? null,
    used: u?.requests_this_month ?? null,
    limit: u?.requests_limit ?? null,
    resetDate: u?.reset_date ?? null,
  };
}

export function composeDigest(input: DigestInput): Digest {
  const urls = input.limits?.urls ?? DIGEST_URLS;
  const ideaCount = input.limits?.ideas ?? 5;
  const crawlers = input.limits?.crawlers ?? 3;
  const unavailable = (f: Failed): Unavailable => ({ status: 'unavailable', reason: f.error });
  return {
    brandId: input.brand.id,
    brandName: input.brand.name,
    date: input.date,
    late: input.late ?? false,
    key: `digest:${input.brand.id}:${input.date}`,
    citations: isFailed(input.feed) ? unavailable(input.feed) : citationsSection(input.feed, urls),
    ideas: isFailed(input.ideas) ? unavailable(input.ideas) : ideasSection(input.ideas, ideaCount),
    crawler: isFailed(input.crawler) ? unavailable(input.crawler) : crawlerSection(input.crawler, crawlers),
    aiPages: isFailed(input.aiPages) ? unavailable(input.aiPages) : aiPagesSection(input.aiPages),
  };
}
