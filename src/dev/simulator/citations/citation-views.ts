/**
 * The six views of GET /get-citations (docs/api.md §4.8), computed from a brand's snapshots.
 * Pure functions: the handler validates parameters and supplies the day of each snapshot.
 */

import { dateOfDay } from '../../../utc-days.js';
import type { BrandProfile, PromptIntent } from '../brand-profiles.js';
import { dayTimestamp } from '../dates.js';
import { uuidFrom } from '../random.js';
import type { CitationBook, Snapshot, SnapshotEntry } from './citation-book.js';
import type { CitedPage } from './citation-universe.js';

export interface ViewContext {
  readonly profile: BrandProfile;
  readonly book: CitationBook;
  /** epoch day of snapshot `i`; the latest snapshot is today */
  readonly dayOf: (index: number) => number;
}

export interface CitationFilter {
  domain?: string | undefined;
  tagIds?: readonly string[];
  promptText?: string | undefined;
}

/** The daily research run lands early in the UTC morning. */
const RUN_MS_INTO_DAY = 5 * 3_600_000;

const INTENT_LABELS: Record<PromptIntent, string> = {
  comparison: 'Head-to-head comparisons',
  alternative: 'Alternatives',
  best_for: 'Best-for lists',
  discovery: 'Discovery and education',
  recommendation: 'Recommendations',
};

const round1 = (n: number) => Math.round(n * 10) / 10;
const pct = (part: number, whole: number) => (whole === 0 ? 0 : round1((part / whole) * 100));

function sentimentLabel(score: number): 'positive' | 'neutral' | 'negative' {
  if (score >= 60) return 'positive';
  if (score >= 40) return 'neutral';
  return 'negative';
}

function brandRef(ctx: ViewContext) {
  return { id: ctx.profile.id, name: ctx.profile.name };
}

interface Row {
  page: CitedPage;
  entry: SnapshotEntry;
}

function rowsOf(ctx: ViewContext, snapshot: Snapshot, filter: CitationFilter = {}): Row[] {
  const { universe } = ctx.book;
  const domain = filter.domain?.toLowerCase();
  const promptText = filter.promptText?.toLowerCase();
  const tagIds = new Set((filter.tagIds ?? []).map((t) => t.toLowerCase()));
  const rows: Row[] = [];
  for (const [url, entry] of snapshot) {
    const page = universe.byUrl.get(url)!;
    // A part of a domain matches it and its subdomains ("g2" matches www.g2.com).
    if (domain && !page.domain.includes(domain)) continue;
    const prompts = page.prompts.map((i) => universe.prompts[i]!);
    if (promptText && !prompts.some((p) => p.text.toLowerCase().includes(promptText))) continue;
    if (tagIds.size > 0 && !prompts.some((p) => tagIds.has(p.tagId))) continue;
    rows.push({ page, entry });
  }
  return rows.sort((a, b) => b.entry.appearances - a.entry.appearances || (a.page.url < b.page.url ? -1 : 1));
}

const currentIndex = (ctx: ViewContext) => ctx.book.snapshots.length - 1;
const current = (ctx: ViewContext) => ctx.book.snapshots[currentIndex(ctx)]!;

function visibilityScore(row: Row): number {
  const raw = row.page.domainRating * 0.45 + row.entry.appearances * 5 + (row.page.mentionsBrand ? 12 : 0);
  return round1(Math.min(100, raw));
}

function paginate<T>(items: readonly T[], limit: number, offset: number) {
  return {
    items: items.slice(offset, offset + limit),
    pagination: { total: items.length, limit, offset, has_more: offset + limit < items.length },
  };
}

export function listView(ctx: ViewContext, filter: CitationFilter, limit: number, offset: number) {
  const date = dateOfDay(ctx.dayOf(currentIndex(ctx)));
  const { prompts } = ctx.book.universe;
  const citations = rowsOf(ctx, current(ctx), filter).map((row) => {
    const prompt = prompts[row.page.prompts[0]!]!;
    return {
      id: uuidFrom(`citation:${ctx.profile.id}:${row.page.url}`),
      url: row.page.url,
      domain: row.page.domain,
      page_title: row.page.title,
      prompt: { text: prompt.text, type: prompt.intent },
      metrics: {
        appearances: row.entry.appearances,
        sentiment: sentimentLabel(row.entry.sentiment),
        visibility_score: visibilityScore(row),
      },
      seo: { domain_rating: row.page.domainRating },
      source_type: row.page.sourceType,
      search_model: row.page.model,
      date,
    };
  });
  const { items, pagination } = paginate(citations, limit, offset);
  return { brand: brandRef(ctx), citations: items, pagination };
}

export function historyView(ctx: ViewContext, days: number) {
  const today = ctx.dayOf(currentIndex(ctx));
  const firstDay = today - days + 1;
  const series: ReturnType<typeof pointOf>[] = [];
  const competitorSeries: Record<string, { date: string; mentions: number }[]> = {};
  for (const competitor of ctx.profile.competitors) competitorSeries[competitor] = [];
  ctx.book.snapshots.forEach((snapshot, index) => {
    const day = ctx.dayOf(index);
    if (day < firstDay) return;
    const rows = rowsOf(ctx, snapshot);
    series.push(pointOf(day, rows));
    for (const competitor of ctx.profile.competitors) {
      competitorSeries[competitor]!.push({
        date: dateOfDay(day),
        mentions: rows.filter((r) => r.entry.competitors.includes(competitor)).length,
      });
    }
  });
  return {
    brand: brandRef(ctx),
    brand_time_series: series,
    competitor_time_series: competitorSeries,
    snapshots_available: ctx.book.snapshots.length,
    date_range: { start: series[0]?.date ?? null, end: series.at(-1)?.date ?? null },
  };
}

function pointOf(day: number, rows: readonly Row[]) {
  return {
    date: dateOfDay(day),
    total_citations: rows.reduce((sum, r) => sum + r.entry.appearances, 0),
    brand_mentions: rows.filter((r) => r.page.mentionsBrand).length,
    unique_sources: new Set(rows.map((r) => r.page.domain)).size,
    avg_sentiment:
      rows.length === 0 ? null : round1(rows.reduce((sum, r) => sum + r.entry.sentiment, 0) / rows.length),
  };
}

export function queriesView(ctx: ViewContext, filter: CitationFilter) {
  const { prompts } = ctx.book.universe;
  const idx = currentIndex(ctx);
  const rows = rowsOf(ctx, current(ctx), filter);
  const weekAgo = rowsOf(ctx, ctx.book.snapshots[Math.max(0, idx - 7)]!, filter);
  const everBefore = new Set<number>();
  for (const snapshot of ctx.book.snapshots.slice(0, idx)) {
    for (const row of rowsOf(ctx, snapshot, filter)) for (const p of row.page.prompts) everBefore.add(p);
  }
  const countFor = (list: readonly Row[], prompt: number) =>
    list.filter((r) => r.page.prompts.includes(prompt)).length;

  const insights = prompts
    .map((prompt) => {
      const matching = rows.filter((r) => r.page.prompts.includes(prompt.index));
      const found = matching.length;
      const before = countFor(weekAgo, prompt.index);
      const domains = new Map<string, number>();
      for (const r of matching) domains.set(r.page.domain, (domains.get(r.page.domain) ?? 0) + 1);
      return {
        query: prompt.text,
        intent: prompt.intent,
        frequency: prompt.frequency + found * 3,
        citations_found: found,
        brand_appears: matching.some((r) => r.page.mentionsBrand),
        top_sources: [...domains]
          .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
          .slice(0, 3)
          .map(([domain, citations]) => ({ domain, citations })),
        competitors_appearing: [...new Set(matching.flatMap((r) => r.entry.competitors))].sort(),
        is_new: found > 0 && !everBefore.has(prompt.index),
        trend: found > before ? 'up' : found < before ? 'down' : 'stable',
      };
    })
    .filter((q) => q.citations_found > 0);

  const intents = [...new Set(insights.map((q) => q.intent))];
  const clusters = intents.map((intent) => {
    const qs = insights.filter((q) => q.intent === intent);
    const appears = qs.filter((q) => q.brand_appears).length;
    return {
      intent,
      label: INTENT_LABELS[intent],
      queries: qs.map((q) => q.query),
      total_citations: qs.reduce((sum, q) => sum + q.citations_found, 0),
      brand_appears_in: appears,
      coverage_rate: pct(appears, qs.length),
    };
  });
  return {
    brand: brandRef(ctx),
    clusters,
    top_queries: [...insights].sort((a, b) => b.frequency - a.frequency).slice(0, 10),
    gap_queries: insights
      .filter((q) => !q.brand_appears && q.competitors_appearing.length > 0)
      .sort((a, b) => b.frequency - a.frequency),
    coverage_by_intent: Object.fromEntries(clusters.map((c) => [c.intent, c.coverage_rate])),
    new_queries_count: insights.filter((q) => q.is_new).length,
    rising_queries_count: insights.filter((q) => q.trend === 'up').length,
  };
}

/** null when the domain has no citations in the current snapshot (the handler answers 404). */
export function sourcesView(ctx: ViewContext, domain: string, limit: number, offset: number) {
  const wanted = domain.toLowerCase();
  const onDomain = (s: Snapshot) => rowsOf(ctx, s).filter((r) => r.page.domain === wanted);
  const rows = onDomain(current(ctx));
  if (rows.length === 0) return null;
  const firstIndex = ctx.book.snapshots.findIndex((s) => onDomain(s).length > 0);
  const mentioning = rows.filter((r) => r.page.mentionsBrand);
  const pages = rows.map((r) => ({
    url: r.page.url,
    h1: r.page.title,
    sentiment: r.entry.sentiment,
    mentions_brand: r.page.mentionsBrand,
    competitors: r.entry.competitors,
    appearance_count: r.entry.appearances,
  }));
  const { items, pagination } = paginate(pages, limit, offset);
  return {
    brand: brandRef(ctx),
    domain: wanted,
    total_citations: rows.reduce((sum, r) => sum + r.entry.appearances, 0),
    unique_pages: rows.length,
    mentions_you: mentioning.length > 0,
    mention_count: mentioning.length,
    competitors_on_domain: [...new Set(rows.flatMap((r) => r.entry.competitors))].sort(),
    avg_sentiment: round1(rows.reduce((sum, r) => sum + r.entry.sentiment, 0) / rows.length),
    pages: items,
    pagination,
    first_seen: dateOfDay(ctx.dayOf(firstIndex)),
    last_seen: dateOfDay(ctx.dayOf(currentIndex(ctx))),
  };
}

type FeedEventType = 'new' | 'lost' | 'sentiment_changed' | 'competitor_appeared';
const EVENT_ORDER: Record<FeedEventType, number> = {
  lost: 0,
  competitor_appeared: 1,
  sentiment_changed: 2,
  new: 3,
};

/** Sentiment moves smaller than this are noise, not events. */
const SENTIMENT_EVENT_MIN = 5;

type FeedEvent = Record<string, unknown> & { event_type: FeedEventType; timestamp: string; url: string };

const feedPage = (page: CitedPage) => ({
  url: page.url,
  domain: page.domain,
  h1: page.title,
  source_type: page.sourceType,
});

/**
 * A page cited now: new since `old`, or its sentiment moved, or competitors appeared on
 * it. `changedAt` stamps the run in which a change last happened.
 */
function keptPageEvents(
  book: ViewContext['book'],
  url: string,
  entry: NonNullable<ReturnType<ViewContext['book']['snapshots'][number]['get']>>,
  old: ReturnType<ViewContext['book']['snapshots'][number]['get']>,
  changedAt: (changed: (i: number) => boolean) => string,
): FeedEvent[] {
  const { snapshots, universe } = book;
  const events: FeedEvent[] = [];
  const page = universe.byUrl.get(url)!;
  if (!old) {
    const at = changedAt((i) => snapshots[i]!.has(url) && !snapshots[i - 1]!.has(url));
    events.push({
      event_type: 'new',
      ...feedPage(page),
      timestamp: at,
      sentiment: entry.sentiment,
      prev_sentiment: null,
      mentions_brand: page.mentionsBrand,
      appearance_count: entry.appearances,
      prompts: page.prompts.map((i) => universe.prompts[i]!.text),
    });
    return events;
  }
  if (Math.abs(entry.sentiment - old.sentiment) >= SENTIMENT_EVENT_MIN) {
    const at = changedAt((i) => snapshots[i]!.get(url)?.sentiment !== snapshots[i - 1]!.get(url)?.sentiment);
    events.push({
      event_type: 'sentiment_changed',
      ...feedPage(page),
      timestamp: at,
      sentiment: entry.sentiment,
      prev_sentiment: old.sentiment,
    });
  }
  for (const competitor of entry.competitors) {
    if (old.competitors.includes(competitor)) continue;
    const at = changedAt(
      (i) =>
        (snapshots[i]!.get(url)?.competitors.includes(competitor) ?? false) &&
        !(snapshots[i - 1]!.get(url)?.competitors.includes(competitor) ?? false),
    );
    events.push({
      event_type: 'competitor_appeared',
      ...feedPage(page),
      timestamp: at,
      sentiment: entry.sentiment,
      prev_sentiment: null,
      competitor,
    });
  }
  return events;
}

/**
 * Compares the current snapshot with the one `daysBack` snapshots earlier (clamped to the
 * first). Each event is stamped with the run in which its change last happened, so one
 * loss keeps the same timestamp in every daily feed that still covers it.
 */
export function feedView(ctx: ViewContext, daysBack: number, limit: number, offset: number) {
  const { snapshots, universe } = ctx.book;
  const cur = currentIndex(ctx);
  const prev = Math.max(0, cur - daysBack);
  const now = snapshots[cur]!;
  const before = snapshots[prev]!;
  const stamp = (index: number) => dayTimestamp(ctx.dayOf(index), RUN_MS_INTO_DAY);
  /** Latest snapshot index in (prev, cur] where `changed(i)` holds. */
  const lastChange = (changed: (i: number) => boolean) => {
    for (let i = cur; i > prev; i--) if (changed(i)) return i;
    return cur;
  };

  const events: FeedEvent[] = [];
  const changedAt = (changed: (i: number) => boolean) => stamp(lastChange(changed));
  for (const [url, entry] of now) {
    events.push(...keptPageEvents(ctx.book, url, entry, before.get(url), changedAt));
  }
  for (const [url, old] of before) {
    if (now.has(url)) continue;
    const page = universe.byUrl.get(url)!;
    const at = lastChange((i) => !snapshots[i]!.has(url) && snapshots[i - 1]!.has(url));
    events.push({
      event_type: 'lost',
      ...feedPage(page),
      timestamp: stamp(at),
      sentiment: old.sentiment,
      prev_sentiment: null,
    });
  }
  events.sort(
    (a, b) =>
      (a.timestamp < b.timestamp ? 1 : a.timestamp > b.timestamp ? -1 : 0) ||
      EVENT_ORDER[a.event_type] - EVENT_ORDER[b.event_type] ||
      (a.url < b.url ? -1 : a.url > b.url ? 1 : 0),
  );
  const { items, pagination } = paginate(events, limit, offset);
  return {
    brand: brandRef(ctx),
    events: items,
    pagination,
    current_snapshot_date: dateOfDay(ctx.dayOf(cur)),
    previous_snapshot_date: dateOfDay(ctx.dayOf(prev)),
    total_current: now.size,
    total_previous: before.size,
  };
}

export function heatmapView(ctx: ViewContext, filter: CitationFilter) {
  const rows = rowsOf(ctx, current(ctx), filter);
  const byDomain = new Map<string, Row[]>();
  for (const row of rows) {
    const list = byDomain.get(row.page.domain);
    if (list) list.push(row);
    else byDomain.set(row.page.domain, [row]);
  }
  const domains = [...byDomain]
    .sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1))
    .slice(0, 15)
    .map(([d]) => d);
  const you = ctx.profile.name;
  const brands = [you, ...ctx.profile.competitors];
  const cells = domains.flatMap((domain) =>
    brands.map((brand) => {
      const onDomain = byDomain.get(domain)!;
      const count =
        brand === you
          ? onDomain.filter((r) => r.page.mentionsBrand).length
          : onDomain.filter((r) => r.entry.competitors.includes(brand)).length;
      return { domain, brand, is_present: count > 0, mention_count: count };
    }),
  );
  const coverage = (brand: string) =>
    pct(cells.filter((c) => c.brand === brand && c.is_present).length, domains.length);
  return {
    brand: brandRef(ctx),
    domains,
    brands,
    your_brand: you,
    cells,
    your_coverage: coverage(you),
    competitor_coverage: Object.fromEntries(ctx.profile.competitors.map((c) => [c, coverage(c)])),
  };
}
