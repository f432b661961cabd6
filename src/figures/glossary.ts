/**
 * The glossary: one entry per figure the bot shows, with its one name in the UI, what it
 * counts, the API fields it comes from, its unit and rounding, and a line a marketer can
 * read. The service counts several different things that all sound like "citations"
 * (docs/api.md §11); every view, alert, digest, chart and the App Home takes the name
 * and the explanation from here, so one word always means one number. `/visibility help
 * figures` shows the entries and the README carries them as a table (a test compares it).
 */
import { countText, usagePercentText } from './number-text.js';
import { counted } from './plural.js';

export type FigureId =
  | 'citedPages'
  | 'citations'
  | 'brandMentions'
  | 'competitorMentions'
  | 'uniqueSources'
  | 'sentiment'
  | 'aiCrawlerVisits'
  | 'visitsByCrawler'
  | 'visitsByBotType'
  | 'searchCrawlerVisits'
  | 'pagesVisited'
  | 'aiPagesRequests'
  | 'aiPagesUsage'
  | 'ideaScore';

export interface Figure {
  readonly id: FigureId;
  /** The one name the UI shows, sentence case: "Cited pages". */
  readonly name: string;
  /** One thing counted, for "1 cited page" / "64 cited pages"; null for scores and shares. */
  readonly unit: string | null;
  /** What one unit of the figure is. */
  readonly counts: string;
  /** Where it comes from: endpoint and field. */
  readonly fields: readonly string[];
  /** How it is written. */
  readonly rounding: string;
  /** One line for a marketer: what it tells them. */
  readonly explanation: string;
  /** Where the service offers two figures for it, which one the bot shows and why (plain words: help shows it). */
  readonly shown?: string;
  /** The value as the UI writes it: "64", "55/100", "42 %". */
  readonly format: (value: number | null | undefined) => string;
}

const whole = (n: number | null | undefined) =>
  countText(typeof n === 'number' && Number.isFinite(n) ? Math.round(n) : n);
const outOf100 = (n: number | null | undefined) =>
  typeof n === 'number' && Number.isFinite(n) ? `${whole(n)}/100` : countText(n);

const WHOLE = 'whole number, thousands grouped (1,234)';
const SCORE = 'whole number out of 100 (55/100)';

/** In the order `help figures` and the README list them: citations first, then crawlers, then usage. */
const FIGURES: readonly Figure[] = [
  {
    id: 'citedPages',
    name: 'Cited pages',
    unit: 'cited page',
    counts: 'distinct web pages (URLs) that AI answers cite when they talk about the brand, on one day',
    fields: [
      'GET /get-citations (list): pagination.total',
      'view=feed: total_current, total_previous; its new and lost events',
    ],
    rounding: WHOLE,
    explanation:
      'How many different pages AI answers use as sources about you. A page counts once however often it is cited.',
    format: whole,
  },
  {
    id: 'citations',
    name: 'Citations',
    unit: 'citation',
    counts: 'times AI answers cited a page about the brand, on one day (a page cited 9 times counts 9)',
    fields: [
      'view=history: brand_time_series[].total_citations',
      'list: metrics.appearances (one page)',
      'view=sources: total_citations (one domain)',
    ],
    rounding: WHOLE,
    explanation:
      'How often AI answers point to pages about you: the cited pages weighted by how often each is cited.',
    shown:
      "The day's total is the one the history sends; it is the citations of that day's cited pages added up when the service counts both from the same research run.",
    format: whole,
  },
  {
    id: 'brandMentions',
    name: 'Brand mentions',
    unit: 'brand mention',
    counts: 'AI answers that mention the brand by name, on one day',
    fields: ['view=history: brand_time_series[].brand_mentions', 'view=heatmap: mention_count of your brand'],
    rounding: WHOLE,
    explanation:
      'How often AI answers name you, not just a page about your field. Compare it with competitor mentions.',
    format: whole,
  },
  {
    id: 'competitorMentions',
    name: 'Competitor mentions',
    unit: 'competitor mention',
    counts: 'AI answers that mention one competitor by name, counted like brand mentions, on one day',
    fields: ['view=history: competitor_time_series[name][].mentions', 'view=heatmap: mention_count'],
    rounding: WHOLE,
    explanation:
      'The same count for each competitor, so a chart of you against them compares mentions with mentions.',
    format: whole,
  },
  {
    id: 'uniqueSources',
    name: 'Sources',
    unit: 'source',
    counts: 'distinct websites (domains) among the cited pages, on one day',
    fields: ['view=history: brand_time_series[].unique_sources'],
    rounding: WHOLE,
    explanation:
      'How many different websites AI answers draw on about you; more sites means less depends on one.',
    format: whole,
  },
  {
    id: 'sentiment',
    name: 'Sentiment',
    unit: null,
    counts:
      'the tone toward the brand on cited pages, 0 (negative) to 100 (positive); a day averages its pages',
    fields: [
      'view=history: brand_time_series[].avg_sentiment',
      'view=feed: sentiment, prev_sentiment (one page)',
      'list: metrics.sentiment (positive, neutral, negative)',
    ],
    rounding: SCORE,
    explanation:
      'Whether the pages AI answers cite speak well of you: below 40 reads negative, 60 and above positive.',
    format: outOf100,
  },
  {
    id: 'aiCrawlerVisits',
    name: 'AI crawler visits',
    unit: 'visit',
    counts: "requests AI companies' crawlers made to the brand's website over a period of whole days",
    fields: [
      'GET /crawler/overview: hero.total_visits, hero.total_visits_change',
      'chart.series[].count (one day)',
    ],
    rounding: `${WHOLE}; changes in whole percent (−40 %)`,
    explanation: 'How much AI models read your site: what they do not read, they cannot cite.',
    format: whole,
  },
  {
    id: 'visitsByCrawler',
    name: 'Visits by crawler',
    unit: 'visit',
    counts: 'AI crawler visits of one named crawler (GPTBot, ClaudeBot, …) over the same days',
    fields: [
      'GET /crawler/overview: chart.distribution[].count and .percentage',
      'chart.series[].by_crawler',
    ],
    rounding: `${WHOLE}; shares in whole percent`,
    explanation: 'Which AI crawlers read your site most, and which of them fell when visits drop.',
    format: whole,
  },
  {
    id: 'visitsByBotType',
    name: 'Visits by bot type',
    unit: 'visit',
    counts:
      'AI crawler visits split by what the crawler is for: training, search, user requests, agents, other',
    fields: ['GET /crawler/overview: chart.bot_type_summary'],
    rounding: WHOLE,
    explanation:
      'Whether AI companies read your site to train models, to answer searches now, or for a user asking.',
    shown:
      'The service sorts visits into bot types apart from its visit total and its search-crawler count, so the parts need not add up to either: the bot shows the split as the service sends it and says so.',
    format: whole,
  },
  {
    id: 'searchCrawlerVisits',
    name: 'Search-crawler visits',
    unit: 'visit',
    counts:
      'AI crawler visits by crawlers that fetch pages to answer a search now (OAI-SearchBot, PerplexityBot, …)',
    fields: ['GET /crawler/overview: breakdown.search_bot_visits'],
    rounding: WHOLE,
    explanation:
      'The visits closest to being cited: search crawlers fetch a page to answer a question being asked.',
    shown:
      'The service also counts a "search" part in its bot-type split, sorted differently; the bot shows its search-crawler count under this name, and that part only inside the split.',
    format: whole,
  },
  {
    id: 'pagesVisited',
    name: 'Pages visited',
    unit: 'page',
    counts: "distinct pages of the brand's website AI crawlers visited over the period",
    fields: ['GET /crawler/overview: hero.unique_pages, hero.unique_pages_change'],
    rounding: WHOLE,
    explanation: 'How much of your site AI crawlers reach; pages they never visit cannot be cited.',
    format: whole,
  },
  {
    id: 'aiPagesRequests',
    name: 'AI Pages requests',
    unit: 'request',
    counts: 'AI-friendly page versions served to AI crawlers this billing period, against the monthly limit',
    fields: ['GET /ai-pages: usage.requests_this_month, usage.requests_limit, usage.reset_date'],
    rounding: WHOLE,
    explanation:
      'How much of your plan AI Pages has used; when it reaches the limit, crawlers get your normal pages.',
    format: whole,
  },
  {
    id: 'aiPagesUsage',
    name: 'AI Pages usage',
    unit: null,
    counts: "AI Pages requests this billing period as a share of the plan's monthly limit",
    fields: ['GET /ai-pages: usage.percentage_used'],
    rounding: 'whole percent, rounded down (79.6 % reads 79 %, so "80 %" always means the 80 % alert fired)',
    explanation: 'How close AI Pages is to its monthly limit; alerts come at 80, 90 and 100 %.',
    format: usagePercentText,
  },
  {
    id: 'ideaScore',
    name: 'Opportunity score',
    unit: null,
    counts: 'how much a content idea could win, 0 to 100, as the service ranks it',
    fields: ['GET /get-content-ideas: ideas[].opportunity_score'],
    rounding: SCORE,
    explanation: 'Higher means more impact for the effort: start with the top-scored ideas.',
    format: outOf100,
  },
];

const BY_ID = new Map(FIGURES.map((f) => [f.id, f]));

/** Every entry, in the order help and the README list them. */
export const GLOSSARY: readonly Figure[] = FIGURES;

export function figure(id: FigureId): Figure {
  return BY_ID.get(id)!;
}

/** The UI name: figureName('citedPages') → "Cited pages". */
export function figureName(id: FigureId): string {
  return figure(id).name;
}

/** The name inside a sentence: "cited pages", "AI crawler visits" (names keep their capitals). */
export function figureWords(id: FigureId): string {
  const name = figure(id).name;
  return /^[A-Z][a-z]/.test(name) && !name.startsWith('AI ') ? name[0]!.toLowerCase() + name.slice(1) : name;
}

/** The value as the UI writes it: figureText('sentiment', 54.9) → "55/100". */
export function figureText(id: FigureId, value: number | null | undefined): string {
  return figure(id).format(value);
}

/** The value with its unit: countFigure('citedPages', 1) → "1 cited page"; scores as figureText. */
export function countFigure(id: FigureId, value: number): string {
  const f = figure(id);
  if (f.unit === null) return f.format(value);
  return counted(Math.round(value), f.unit);
}
