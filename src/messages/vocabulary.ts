/**
 * Service codes in the words a marketer uses: intents, page and template types, idea
 * types, AI model slugs, page statuses, bot types, field names and abbreviations. One
 * place, so every view says "Google AI Overviews" and never `google-ai-overviews`. Codes
 * the table does not know still read as words (`brand_new_thing` → "Brand new thing"):
 * the service adds codes faster than this table grows. Pure; no I/O.
 */
import { ownLookup } from './own-lookup.js';

/** `total_visits` / `totalVisits` / `ai-overview` → "Total visits" / "Ai overview". */
export function humanizeCode(code: string): string {
  const words = code
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-.]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
  if (words === '') return code;
  return (words[0]!.toUpperCase() + words.slice(1)).replace(
    /\b(ai|llm|llms|url|urls|http|seo|faq|id|ids)\b/gi,
    (w) => (w.toLowerCase() === 'llms' ? 'LLMs' : w.toLowerCase() === 'urls' ? 'URLs' : w.toUpperCase()),
  );
}

const MODELS: Record<string, string> = {
  'google-ai-overviews': 'Google AI Overviews',
  'google-ai-overview': 'Google AI Overviews',
  'google-ai-mode': 'Google AI Mode',
  'google-gemini': 'Gemini',
  gemini: 'Gemini',
  chatgpt: 'ChatGPT',
  'gpt-4o-search': 'ChatGPT search (GPT-4o)',
  'perplexity-sonar': 'Perplexity Sonar',
  'claude-sonnet-4': 'Claude Sonnet 4',
  'openai-chatgpt': 'ChatGPT',
  openai: 'OpenAI',
  perplexity: 'Perplexity',
  claude: 'Claude',
  anthropic: 'Anthropic',
  copilot: 'Microsoft Copilot',
  'microsoft-copilot': 'Microsoft Copilot',
  grok: 'Grok',
  deepseek: 'DeepSeek',
  'meta-ai': 'Meta AI',
  mistral: 'Mistral',
  'you-com': 'You.com',
  google: 'Google',
  amazon: 'Amazon',
  apple: 'Apple',
  meta: 'Meta',
  microsoft: 'Microsoft',
  bytedance: 'ByteDance',
  'common-crawl': 'Common Crawl',
};

const PAGE_TYPES: Record<string, string> = {
  alternatives_page: 'Alternatives page',
  comparison_page: 'Comparison page',
  faq_page: 'FAQ page',
  how_to_guide: 'How-to guide',
  listicle: 'List article',
  best_for: 'Best for',
  best_of: 'Best of',
  vs_page: 'Comparison page',
  landing_page: 'Landing page',
  product_page: 'Product page',
  pricing_page: 'Pricing page',
  blog_post: 'Blog post',
  case_study: 'Case study',
  glossary: 'Glossary entry',
  review: 'Review',
};

/** Crawler visit purposes and query intents (docs/api.md: citation query clusters, prompt types). */
const INTENTS: Record<string, string> = {
  comparison: 'Comparison',
  alternative: 'Alternatives',
  alternatives: 'Alternatives',
  best_for: 'Best for',
  discovery: 'Discovery',
  recommendation: 'Recommendation',
  search: 'Search',
  training: 'Training',
  user: 'On a user’s request',
  user_request: 'On a user’s request',
  informational: 'Looking for information',
  commercial: 'Comparing options',
  transactional: 'Ready to buy',
  navigational: 'Looking for a site',
};

const PAGE_STATUSES: Record<string, string> = {
  converting: 'Cited and bringing visitors',
  cited: 'Cited in AI answers',
  crawled: 'Crawled, not yet cited',
  healthy: 'Crawled regularly',
  cold: 'Not crawled lately',
  not_recrawled: 'Not crawled again',
  not_found: 'Not found',
};

const BOT_TYPES: Record<string, string> = {
  search: 'Search bot',
  training: 'Training bot',
  user: 'User-triggered bot',
  assistant: 'Assistant bot',
};

/** Field names the crawler payloads are known to send (docs/api.md §10, the simulator). */
const FIELDS: Record<string, string> = {
  response_ms: 'response time',
  avg_response_ms: 'average response time',
  error_rate_pct: 'error rate',
  crawl_efficiency_pct: 'crawl efficiency',
  status_code: 'HTTP status',
  http_status: 'HTTP status',
  typical_status: 'usual HTTP status',
  status_codes: 'HTTP statuses',
  bot_type: 'bot type',
  bot_type_summary: 'by bot type',
  platform: 'AI company',
  intent: 'purpose',
  visited_at: 'visited',
  last_visited_at: 'last visit',
  last_crawled_at: 'last crawled',
  last_crawled: 'last crawled',
  last_seen_at: 'last seen',
  last_fetched_at: 'last checked',
  started_at: 'started',
  ended_at: 'ended',
  user_agent: 'user agent',
  total_visits: 'total visits',
  total_visits_change: 'change in visits',
  unique_pages: 'pages visited',
  unique_pages_change: 'change in pages visited',
  unique_crawlers: 'AI crawlers',
  pages_crawled: 'pages crawled',
  total_pages: 'pages',
  avg_daily_visits: 'visits a day',
  search_bot_visits: 'search bot visits',
  top_pages: 'top pages',
  top_paths: 'top paths',
  top_crawlers: 'top crawlers',
  top_bots: 'top bots',
  top_crawler: 'top crawler',
  by_crawler: 'by crawler',
  by_status: 'by status',
  status_breakdown: 'by status',
  cold_pages: 'pages not crawled lately',
  affected_bots: 'bots affected',
  fix_available: 'fix available',
  robots_txt: 'robots.txt',
  robots_allowed: 'allowed by robots.txt',
  robots_disallow: 'blocked by robots.txt',
  missing_llms_txt: 'no llms.txt',
  llms: 'llms.txt',
  llms_txt: 'llms.txt',
  bot_access: 'bot access',
  blocked_by_firewall: 'blocked by a firewall',
  tracking_id: 'tracking snippet',
  has_tracking_id: 'tracking snippet installed',
  key_verified: 'key verified',
  has_historical_data: 'history available',
  submit_to_search: 'submit to search engines',
  last_submission: 'last submission',
  recent_preview: 'recent visits',
  previous_period: 'previous period',
  dr: 'domain rating',
  domain_rating: 'domain rating',
  da: 'domain authority',
  ctr: 'click-through rate',
  serp: 'search results page',
};

/** Abbreviations people meet in the views, spelled out. */
const ABBREVIATIONS: Record<string, string> = {
  DR: 'domain rating',
  DA: 'domain authority',
  CTR: 'click-through rate',
  SERP: 'search results page',
  LLM: 'AI language model',
  SOV: 'share of voice',
};

const HTTP_STATUS: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  204: 'No content',
  301: 'Moved permanently',
  302: 'Redirected',
  304: 'Not modified',
  307: 'Redirected',
  308: 'Moved permanently',
  400: 'Bad request',
  401: 'Needs login',
  403: 'Forbidden',
  404: 'Not found',
  410: 'Gone',
  429: 'Too many requests',
  500: 'Server error',
  502: 'Bad gateway',
  503: 'Unavailable',
  504: 'Timed out',
};

const norm = (code: string) => code.trim().toLowerCase();
const lookup = (table: Readonly<Record<string, string>>, code: string) => ownLookup(table, norm(code));

const MODEL_WORDS: Record<string, string> = { ai: 'AI', gpt: 'GPT', chatgpt: 'ChatGPT', openai: 'OpenAI' };

/** `google-ai-overviews` → "Google AI Overviews"; unknown slugs in title case. */
export function modelName(slug: string): string {
  const known = lookup(MODELS, slug);
  if (known) return known;
  const words = slug.split(/[-_\s]+/).filter((w) => w !== '');
  if (words.length === 0) return slug;
  return words.map((w) => MODEL_WORDS[w.toLowerCase()] ?? w[0]!.toUpperCase() + w.slice(1)).join(' ');
}

/** `alternatives_page` → "Alternatives page" (templates, page types, idea types). */
export const pageTypeName = (code: string): string => lookup(PAGE_TYPES, code) ?? humanizeCode(code);
/** docs/api.md §2 idea types in words a marketer uses; an unknown future type is humanised, not hidden. */
const IDEA_TYPES: Readonly<Record<string, string>> = {
  prompt_gap: 'Prompt gap',
  citation_gap: 'Citation gap',
  position_weak: 'Weak position',
  rising: 'Rising topic',
  campaign: 'Campaign',
};

export function ideaTypeName(code: string): string {
  const known = lookup(IDEA_TYPES, code);
  if (known) return known;
  return code.replace(/[_-]+/g, '').trim() === '' ? 'Idea' : humanizeCode(code);
}
export const intentName = (code: string): string => lookup(INTENTS, code) ?? humanizeCode(code);
export const pageStatusName = (code: string): string => lookup(PAGE_STATUSES, code) ?? humanizeCode(code);
export const botTypeName = (code: string): string => lookup(BOT_TYPES, code) ?? humanizeCode(code);

/** A payload field name in words, lower case (it follows a noun or sits in a list). */
export function fieldName(key: string): string {
  const known = lookup(FIELDS, key);
  if (known) return known;
  // The value carries the unit ("12 %", "240 ms"), so the name need not.
  const bare = key.replace(/(?<=.)(_|-)(pct|percent|percentage|ms|millis)$|(?<=[a-z])(Pct|Ms)$/, '');
  return humanizeCode(bare).replace(/^[A-Z](?![A-Z])/, (c) => c.toLowerCase());
}

/** `DR` → "domain rating"; undefined for words that are not a known abbreviation. */
export const abbreviation = (word: string): string | undefined =>
  Object.hasOwn(ABBREVIATIONS, word.toUpperCase()) ? ABBREVIATIONS[word.toUpperCase()] : undefined;

/** `404` → "404 Not found"; unknown codes by their class. */
export function httpStatusText(code: number): string {
  const known = HTTP_STATUS[code];
  if (known) return `${code} ${known}`;
  if (code >= 200 && code < 300) return `${code} OK`;
  if (code >= 300 && code < 400) return `${code} Redirect`;
  if (code >= 400 && code < 500) return `${code} Refused`;
  if (code >= 500 && code < 600) return `${code} Server error`;
  return String(code);
}

/** A code value (an enum-like string such as `blocked_by_firewall`) in words; other text as is. */
export function codeValueText(value: string, key?: string): string {
  if (!/^[a-z0-9]+([_-][a-z0-9]+)+$/.test(value) && !/^[a-z_]+$/.test(value)) return value;
  // Dates, numbers and versions (`2026-11-24`, `1-2`) are not codes.
  if (!/[a-z]{2}/.test(value)) return value;
  const k = key === undefined ? '' : norm(key);
  if (/model|engine|llm|platform|company|vendor/.test(k)) return modelName(value);
  if (/intent/.test(k)) return intentName(value);
  if (/bot_type/.test(k)) return botTypeName(value);
  if (/template|page_type|idea_type|^type$/.test(k)) return pageTypeName(value);
  if (/status|verdict/.test(k) && Object.hasOwn(PAGE_STATUSES, norm(value))) return pageStatusName(value);
  if (Object.hasOwn(MODELS, norm(value))) return modelName(value);
  if (Object.hasOwn(PAGE_TYPES, norm(value))) return pageTypeName(value);
  if (!value.includes('_') && !value.includes('-')) return value;
  return lookup(FIELDS, value) ?? humanizeCode(value);
}
