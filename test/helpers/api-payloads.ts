/**
 * Response payloads shaped exactly as docs/api.md §2/§4 and docs/api.md §10 describe them, for tests
 * that serve them from a local HTTP server.
 */
export const BRAND_ID = '3f6c2a9e-8b1d-4c7a-9e2f-5a1b7c3d9e01';
export const MARKET_ID = '7d2e4f6a-1b3c-4d5e-8f9a-0b1c2d3e4f50';
export const TAG_ID = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d';
export const API_KEY = 'sk_live_0123456789abcdefghijklmnopqrstuv';

export const market = {
  id: MARKET_ID,
  brand_id: BRAND_ID,
  location: 'GB',
  is_primary: false,
  active: true,
  created_at: '2025-01-10T09:00:00Z',
};

export const contentIdeas = {
  ideas: [
    {
      id: 'idea_1',
      type: 'prompt_gap',
      query: 'best running shoes for flat feet',
      insight: 'Competitors appear, you do not.',
      opportunity_score: 87,
      status: 'active',
      recommended_template: 'comparison',
      competitors_appearing: ['Brooks', 'Asics'],
      ai_models: ['gpt-4o', 'perplexity'],
      your_position: null,
      created_at: '2025-01-12T08:00:00Z',
      a_future_field: 'tolerated',
    },
  ],
  pagination: { total: 1, limit: 50, offset: 0, has_more: false },
  meta: { generated_at: '2025-01-12T08:00:00Z', generation_status: 'completed', total_opportunities: 1 },
};

export const brands = {
  brands: [
    {
      id: BRAND_ID,
      name: 'Acme Running',
      website: 'https://acme.example',
      active: true,
      role: 'owner',
      location: 'US',
      location_region: null,
      location_city: null,
      markets: [{ ...market, location: 'US', is_primary: true }],
      aliases: ['Acme'],
    },
  ],
};

export const locationResponse = {
  brand_id: BRAND_ID,
  location: 'GB',
  location_region: 'England',
  location_city: 'London',
  location_provider_code: 1006886,
  primary_market: { ...market, is_primary: true },
};

export const aliasesResponse = { success: true, brand_id: BRAND_ID, aliases: ['Acme', 'Acme Run'] };

const brandRef = { id: BRAND_ID, name: 'Acme Running' };

export const citationList = {
  brand: brandRef,
  citations: [
    {
      id: 'c8a1e2f3-0000-4000-8000-000000000001',
      url: 'https://blog.example.com/best-shoes',
      domain: 'blog.example.com',
      page_title: 'Best shoes',
      prompt: { text: 'best running shoes', type: 'recommendation' },
      metrics: { appearances: 3, sentiment: 'positive', visibility_score: 72.5 },
      seo: { domain_rating: 61 },
      source_type: 'organic',
      search_model: 'perplexity',
      date: '2025-01-12',
    },
  ],
  pagination: { total: 1, limit: 100, offset: 0, has_more: false },
};

export const citationHistory = {
  brand: brandRef,
  brand_time_series: [
    { date: '2025-01-11', total_citations: 10, brand_mentions: 4, unique_sources: 6, avg_sentiment: 70 },
    { date: '2025-01-12', total_citations: 12, brand_mentions: 5, unique_sources: 7, avg_sentiment: null },
  ],
  competitor_time_series: { Brooks: [{ date: '2025-01-12', mentions: 3 }] },
  snapshots_available: 2,
  date_range: { start: '2025-01-11', end: '2025-01-12' },
};

const insight = {
  query: 'best running shoes',
  intent: 'best_for',
  frequency: 4,
  citations_found: 9,
  brand_appears: true,
  top_sources: ['runnersworld.com'],
  competitors_appearing: ['Brooks'],
  is_new: false,
  trend: 'up',
};

export const citationQueries = {
  brand: brandRef,
  clusters: [
    {
      intent: 'best_for',
      label: 'Best for',
      queries: ['best running shoes'],
      total_citations: 9,
      brand_appears_in: 1,
      coverage_rate: 0.5,
    },
  ],
  top_queries: [insight],
  gap_queries: [{ ...insight, brand_appears: false }],
  coverage_by_intent: { best_for: 0.5 },
  new_queries_count: 0,
  rising_queries_count: 1,
};

export const citationSources = {
  brand: brandRef,
  domain: 'runnersworld.com',
  total_citations: 5,
  unique_pages: 2,
  mentions_you: true,
  mention_count: 3,
  competitors_on_domain: ['Brooks'],
  avg_sentiment: 64.2,
  pages: [
    {
      url: 'https://runnersworld.com/a',
      h1: 'A',
      sentiment: 70,
      mentions_brand: true,
      competitors: ['Brooks'],
      appearance_count: 2,
    },
  ],
  first_seen: '2025-01-01',
  last_seen: '2025-01-12',
};

export const citationFeed = {
  brand: brandRef,
  events: [
    {
      event_type: 'new',
      url: 'https://blog.example.com/x',
      domain: 'blog.example.com',
      h1: null,
      source_type: 'organic',
      timestamp: '2025-01-12T06:00:00Z',
      sentiment: 80,
      prev_sentiment: null,
      mentions_brand: true,
      appearance_count: 1,
      prompts: ['best running shoes'],
    },
    {
      event_type: 'lost',
      url: 'https://old.example.com/y',
      domain: 'old.example.com',
      h1: 'Y',
      source_type: null,
      timestamp: '2025-01-12T06:00:00Z',
      sentiment: null,
      prev_sentiment: null,
    },
  ],
  current_snapshot_date: '2025-01-12',
  previous_snapshot_date: '2025-01-05',
  total_current: 12,
  total_previous: 11,
};

export const citationHeatmap = {
  brand: brandRef,
  domains: ['runnersworld.com'],
  brands: ['Acme Running', 'Brooks'],
  your_brand: 'Acme Running',
  cells: [
    { domain: 'runnersworld.com', brand: 'Acme Running', is_present: true, mention_count: 3 },
    { domain: 'runnersworld.com', brand: 'Brooks', is_present: true, mention_count: 5 },
  ],
  your_coverage: 100,
  competitor_coverage: { Brooks: 100 },
};

const distribution = [
  { crawler: 'GPTBot', count: 60, percentage: 60 },
  { crawler: 'PerplexityBot', count: 40, percentage: 40 },
];

export const crawlerOverview = {
  brand_id: BRAND_ID,
  range: {
    range_preset: '7d',
    start: '2025-01-06',
    end: '2025-01-12',
    days: 7,
    compare_to: 'previous_period',
  },
  state: { has_tracking_id: true, has_historical_data: true, tracking_id: 'trk_123' },
  hero: {
    total_visits: 100,
    total_visits_change: -42.5,
    unique_pages: 12,
    unique_pages_change: 5,
    avg_daily_visits: 14.3,
    top_crawler: 'GPTBot',
  },
  chart: {
    series: [{ date: '2025-01-12', count: 14, by_crawler: { GPTBot: 9, PerplexityBot: 5 } }],
    distribution,
    bot_type_summary: { training: 50, search: 30, interaction: 10, agent: 5, other: 5 },
  },
  breakdown: { distribution, top_crawler: 'GPTBot', search_bot_visits: 30, crawl_efficiency_pct: 81.2 },
  top_pages: [{ url: 'https://acme.example/', count: 40, crawlers: ['GPTBot'] }],
  recent_preview: [
    {
      id: 'v1',
      url: 'https://acme.example/',
      platform: 'GPTBot',
      intent: 'training',
      visited_at: '2025-01-12T07:00:00Z',
      status_code: 200,
    },
  ],
};

export const cursorPage = {
  items: [{ url: 'https://acme.example/' }],
  meta: { total: 1, limit: 25, next_cursor: null },
};

export const aiPages = {
  brand: { id: BRAND_ID, name: 'Acme Running', website: 'https://acme.example' },
  config: {
    enabled: true,
    domain: 'acme.example',
    platform: 'cloudflare',
    features: ['structureddatainjection', 'keyfactsextraction'],
    crawlers: ['gptbot', 'perplexitybot'],
  },
  usage: {
    requests_this_month: 8200,
    requests_limit: 10000,
    percentage_used: 82,
    reset_date: '2025-02-01T00:00:00Z',
  },
};
