/**
 * Who the seed brands are: the facts every generator draws on (industry, competitors,
 * prompts, the sites that cite them, their own site's pages, crawler volume, AI Pages).
 * Data only; the generators live in citations/, crawler/ and content-ideas.ts.
 */
import { SEED_BRANDS } from './seed-brands.js';

export type BrandRole = 'owner' | 'editor' | 'viewer';
export type PromptIntent = 'comparison' | 'alternative' | 'best_for' | 'discovery' | 'recommendation';
export type DomainKind = 'review' | 'forum' | 'news' | 'blog' | 'wiki' | 'video' | 'own';

export interface PromptSeed {
  readonly text: string;
  readonly intent: PromptIntent;
}

export interface CitingDomain {
  readonly domain: string;
  readonly kind: DomainKind;
  /** 0–100 domain authority */
  readonly rating: number;
  readonly sourceType: 'organic' | 'paid' | 'direct';
}

export interface AiPagesSeed {
  /** false = the brand's plan lacks the AI Pages entitlement (403) */
  readonly entitled: boolean;
  /** null = not set up (config and usage null) */
  readonly setup: {
    readonly enabled: boolean;
    readonly platform: string | null;
    readonly features: readonly string[];
    readonly crawlers: readonly string[];
    readonly requestsLimit: number;
    readonly percentageUsed: number;
    /**
     * Percentage points the usage grows per simulated day (the service counts AI
     * crawlers' requests as they come); 0 or absent: it holds still until set.
     */
    readonly dailyGrowth?: number;
  } | null;
}

export interface BrandProfile {
  readonly id: string;
  readonly name: string;
  readonly website: string;
  /** bare domain of the website */
  readonly domain: string;
  readonly role: BrandRole;
  readonly location: string | null;
  readonly locationRegion: string | null;
  readonly locationCity: string | null;
  /** further markets beyond the primary one (ISO-2) */
  readonly extraMarkets: readonly string[];
  readonly aliases: readonly string[];
  /** e.g. "product analytics" */
  readonly category: string;
  readonly audiences: readonly string[];
  readonly topics: readonly string[];
  readonly competitors: readonly string[];
  readonly subreddits: readonly string[];
  readonly prompts: readonly PromptSeed[];
  readonly citingDomains: readonly CitingDomain[];
  /** paths of the brand's own site that AI crawlers visit */
  readonly sitePaths: readonly string[];
  /** average AI crawler visits per day */
  readonly dailyCrawlerVisits: number;
  readonly aiPages: AiPagesSeed;
}

const ALL_FEATURES = [
  'structureddatainjection',
  'keyfactsextraction',
  'automatedfaqgeneration',
  'aisummaryblock',
  'entityrecognition',
] as const;

/** Sites that show up in AI answers whatever the industry. */
export const GENERAL_DOMAINS: readonly CitingDomain[] = [
  { domain: 'en.wikipedia.org', kind: 'wiki', rating: 98, sourceType: 'organic' },
  { domain: 'www.reddit.com', kind: 'forum', rating: 97, sourceType: 'organic' },
  { domain: 'www.youtube.com', kind: 'video', rating: 99, sourceType: 'organic' },
  { domain: 'medium.com', kind: 'blog', rating: 95, sourceType: 'organic' },
  { domain: 'www.forbes.com', kind: 'news', rating: 94, sourceType: 'organic' },
  { domain: 'www.quora.com', kind: 'forum', rating: 93, sourceType: 'organic' },
  { domain: 'www.linkedin.com', kind: 'blog', rating: 98, sourceType: 'organic' },
];

const SOFTWARE_DOMAINS: readonly CitingDomain[] = [
  { domain: 'www.g2.com', kind: 'review', rating: 91, sourceType: 'organic' },
  { domain: 'www.capterra.com', kind: 'review', rating: 90, sourceType: 'organic' },
  { domain: 'www.trustradius.com', kind: 'review', rating: 84, sourceType: 'organic' },
  { domain: 'techcrunch.com', kind: 'news', rating: 93, sourceType: 'organic' },
  { domain: 'news.ycombinator.com', kind: 'forum', rating: 90, sourceType: 'organic' },
  { domain: 'www.producthunt.com', kind: 'review', rating: 89, sourceType: 'organic' },
  { domain: 'dev.to', kind: 'blog', rating: 86, sourceType: 'organic' },
  { domain: 'stackoverflow.com', kind: 'forum', rating: 93, sourceType: 'organic' },
  { domain: 'www.gartner.com', kind: 'review', rating: 91, sourceType: 'paid' },
  { domain: 'zapier.com', kind: 'blog', rating: 91, sourceType: 'organic' },
  { domain: 'blog.hubspot.com', kind: 'blog', rating: 92, sourceType: 'organic' },
];

export const BRAND_PROFILES: readonly BrandProfile[] = [
  {
    ...SEED_BRANDS.acme,
    website: 'https://www.acmeanalytics.com',
    domain: 'acmeanalytics.com',
    role: 'owner',
    location: 'US',
    locationRegion: 'California',
    locationCity: 'San Francisco',
    extraMarkets: ['GB', 'DE', 'CA'],
    aliases: ['Acme', 'AcmeAnalytics', 'Acme Analytics Inc.'],
    category: 'product analytics',
    audiences: ['startups', 'B2B SaaS teams', 'mobile apps', 'enterprise product teams', 'e-commerce'],
    topics: ['funnel analysis', 'retention cohorts', 'event tracking', 'session replay', 'A/B testing'],
    competitors: ['Mixpanel', 'Amplitude', 'Heap', 'PostHog', 'Pendo'],
    subreddits: ['analytics', 'SaaS', 'ProductManagement', 'startups'],
    prompts: [
      { text: 'Mixpanel vs Amplitude vs Acme Analytics for a B2B SaaS', intent: 'comparison' },
      { text: 'Acme Analytics vs Heap for event tracking', intent: 'comparison' },
      { text: 'PostHog or Acme Analytics for a small startup', intent: 'comparison' },
      { text: 'Amplitude vs Pendo for product adoption', intent: 'comparison' },
      { text: 'best alternatives to Mixpanel', intent: 'alternative' },
      { text: 'cheaper alternative to Amplitude with session replay', intent: 'alternative' },
      { text: 'open source alternatives to Heap', intent: 'alternative' },
      { text: 'Pendo alternatives for mid-market SaaS', intent: 'alternative' },
      { text: 'best product analytics tool for startups', intent: 'best_for' },
      { text: 'best analytics platform for mobile apps', intent: 'best_for' },
      { text: 'best funnel analysis software for e-commerce', intent: 'best_for' },
      { text: 'best retention analytics for subscription apps', intent: 'best_for' },
      { text: 'what is product analytics', intent: 'discovery' },
      { text: 'how do retention cohorts work', intent: 'discovery' },
      { text: 'how to set up event tracking in a web app', intent: 'discovery' },
      { text: 'what metrics should a product team track', intent: 'discovery' },
      { text: 'which analytics platform should a B2B SaaS use', intent: 'recommendation' },
      { text: 'recommend a product analytics tool with a free tier', intent: 'recommendation' },
      { text: 'what do product managers use for A/B testing analysis', intent: 'recommendation' },
      { text: 'which tool is easiest for funnel reports', intent: 'recommendation' },
    ],
    citingDomains: [
      ...GENERAL_DOMAINS,
      ...SOFTWARE_DOMAINS,
      { domain: 'www.lennysnewsletter.com', kind: 'blog', rating: 78, sourceType: 'organic' },
      { domain: 'amplitude.com', kind: 'blog', rating: 88, sourceType: 'direct' },
      { domain: 'mixpanel.com', kind: 'blog', rating: 89, sourceType: 'direct' },
      { domain: 'posthog.com', kind: 'blog', rating: 84, sourceType: 'direct' },
      { domain: 'acmeanalytics.com', kind: 'own', rating: 71, sourceType: 'direct' },
      { domain: 'docs.acmeanalytics.com', kind: 'own', rating: 65, sourceType: 'direct' },
    ],
    sitePaths: [
      '/',
      '/pricing',
      '/product/funnels',
      '/product/retention',
      '/product/session-replay',
      '/product/experiments',
      '/customers',
      '/customers/brightlane',
      '/compare/mixpanel',
      '/compare/amplitude',
      '/compare/heap',
      '/blog/what-is-product-analytics',
      '/blog/retention-cohorts-explained',
      '/blog/north-star-metric',
      '/blog/event-tracking-plan-template',
      '/blog/funnel-analysis-guide',
      '/blog/ab-testing-sample-size',
      '/docs',
      '/docs/quickstart',
      '/docs/sdk/javascript',
      '/docs/sdk/ios',
      '/docs/api/events',
      '/docs/api/export',
      '/integrations/segment',
      '/integrations/snowflake',
      '/security',
      '/about',
      '/careers',
      '/changelog',
      '/legal/privacy',
    ],
    dailyCrawlerVisits: 900,
    aiPages: {
      entitled: true,
      setup: {
        enabled: true,
        platform: 'cloudflare',
        features: [...ALL_FEATURES],
        crawlers: ['gptbot', 'oai-searchbot', 'claudebot', 'perplexitybot', 'google-extended'],
        requestsLimit: 100_000,
        percentageUsed: 42,
      },
    },
  },
  {
    ...SEED_BRANDS.northwind,
    website: 'https://www.northwindoutfitters.com',
    domain: 'northwindoutfitters.com',
    role: 'viewer',
    location: 'US',
    locationRegion: 'Washington',
    locationCity: 'Seattle',
    extraMarkets: ['CA'],
    aliases: ['Northwind', 'Northwind Outdoor'],
    category: 'outdoor apparel',
    audiences: ['hikers', 'backpackers', 'winter camping', 'trail runners', 'families'],
    topics: ['rain jackets', 'down jackets', 'hiking boots', 'base layers', 'backpacks'],
    competitors: ['Patagonia', "Arc'teryx", 'The North Face', 'REI Co-op', 'Columbia'],
    subreddits: ['CampingandHiking', 'Ultralight', 'BuyItForLife', 'hiking'],
    prompts: [
      { text: "Patagonia vs Arc'teryx rain jacket", intent: 'comparison' },
      { text: 'Northwind Outfitters vs The North Face down jacket', intent: 'comparison' },
      { text: 'Columbia vs Northwind hiking boots', intent: 'comparison' },
      { text: 'REI Co-op vs Patagonia base layers', intent: 'comparison' },
      { text: "affordable alternatives to Arc'teryx", intent: 'alternative' },
      { text: 'brands like Patagonia but cheaper', intent: 'alternative' },
      { text: 'alternatives to The North Face for winter parkas', intent: 'alternative' },
      { text: 'best rain jacket for hiking', intent: 'best_for' },
      { text: 'best down jacket for winter camping', intent: 'best_for' },
      { text: 'best hiking boots for wide feet', intent: 'best_for' },
      { text: 'best backpack for a weekend trip', intent: 'best_for' },
      { text: 'best base layers for cold weather', intent: 'best_for' },
      { text: 'how to layer clothing for hiking', intent: 'discovery' },
      { text: 'what does fill power mean in a down jacket', intent: 'discovery' },
      { text: 'how waterproof ratings work', intent: 'discovery' },
      { text: 'which outdoor brands have a lifetime warranty', intent: 'recommendation' },
      { text: 'recommend a sustainable outdoor clothing brand', intent: 'recommendation' },
      { text: 'what jacket do thru-hikers recommend', intent: 'recommendation' },
    ],
    citingDomains: [
      ...GENERAL_DOMAINS,
      { domain: 'www.outdoorgearlab.com', kind: 'review', rating: 82, sourceType: 'organic' },
      { domain: 'www.switchbacktravel.com', kind: 'review', rating: 76, sourceType: 'organic' },
      { domain: 'gearjunkie.com', kind: 'news', rating: 80, sourceType: 'organic' },
      { domain: 'www.backpacker.com', kind: 'news', rating: 81, sourceType: 'organic' },
      { domain: 'www.rei.com', kind: 'blog', rating: 90, sourceType: 'organic' },
      { domain: 'www.nytimes.com', kind: 'news', rating: 95, sourceType: 'organic' },
      { domain: 'www.outsideonline.com', kind: 'news', rating: 85, sourceType: 'organic' },
      { domain: 'www.treelinereview.com', kind: 'review', rating: 62, sourceType: 'organic' },
      { domain: 'www.cleverhiker.com', kind: 'blog', rating: 66, sourceType: 'organic' },
      { domain: 'www.amazon.com', kind: 'review', rating: 96, sourceType: 'paid' },
      { domain: 'www.patagonia.com', kind: 'blog', rating: 84, sourceType: 'direct' },
      { domain: 'northwindoutfitters.com', kind: 'own', rating: 58, sourceType: 'direct' },
    ],
    sitePaths: [
      '/',
      '/collections/rain-jackets',
      '/collections/down-jackets',
      '/collections/hiking-boots',
      '/collections/base-layers',
      '/collections/backpacks',
      '/products/cascade-rain-shell',
      '/products/summit-800-down-parka',
      '/products/ridgeline-mid-gtx',
      '/products/trailhead-35l-pack',
      '/products/merino-250-crew',
      '/journal/how-to-layer-for-hiking',
      '/journal/fill-power-explained',
      '/journal/waterproof-ratings',
      '/journal/pacific-crest-trail-gear-list',
      '/sustainability',
      '/warranty',
      '/repairs',
      '/stores/seattle',
      '/about',
      '/size-guide',
      '/shipping-returns',
    ],
    dailyCrawlerVisits: 600,
    aiPages: {
      entitled: true,
      setup: {
        enabled: true,
        platform: 'vercel',
        features: ['structureddatainjection', 'keyfactsextraction', 'aisummaryblock'],
        crawlers: ['gptbot', 'oai-searchbot', 'perplexitybot'],
        requestsLimit: 50_000,
        percentageUsed: 68,
      },
    },
  },
  {
    ...SEED_BRANDS.globex,
    website: 'https://www.globexcorp.com',
    domain: 'globexcorp.com',
    role: 'owner',
    location: null,
    locationRegion: null,
    locationCity: null,
    extraMarkets: [],
    aliases: ['Globex'],
    category: 'supply chain software',
    audiences: ['manufacturers', '3PL providers', 'retailers', 'distributors', 'global enterprises'],
    topics: ['warehouse management', 'demand forecasting', 'transport management', 'inventory optimisation'],
    competitors: ['SAP', 'Oracle', 'Manhattan Associates', 'Blue Yonder', 'Kinaxis'],
    subreddits: ['supplychain', 'logistics', 'ERP'],
    prompts: [
      { text: 'SAP vs Oracle for supply chain planning', intent: 'comparison' },
      { text: 'Manhattan Associates vs Blue Yonder WMS', intent: 'comparison' },
      { text: 'Globex vs Kinaxis demand forecasting', intent: 'comparison' },
      { text: 'alternatives to SAP IBP for mid-size manufacturers', intent: 'alternative' },
      { text: 'Blue Yonder alternatives', intent: 'alternative' },
      { text: 'best warehouse management system for 3PL', intent: 'best_for' },
      { text: 'best demand forecasting software for retailers', intent: 'best_for' },
      { text: 'best transport management system for distributors', intent: 'best_for' },
      { text: 'what is supply chain control tower software', intent: 'discovery' },
      { text: 'how does AI demand forecasting work', intent: 'discovery' },
      { text: 'what is inventory optimisation', intent: 'discovery' },
      { text: 'which supply chain platform do global enterprises use', intent: 'recommendation' },
      { text: 'recommend a cloud WMS that integrates with SAP', intent: 'recommendation' },
    ],
    citingDomains: [
      ...GENERAL_DOMAINS,
      ...SOFTWARE_DOMAINS.slice(0, 4),
      { domain: 'www.supplychaindive.com', kind: 'news', rating: 80, sourceType: 'organic' },
      { domain: 'www.logisticsmgmt.com', kind: 'news', rating: 72, sourceType: 'organic' },
      { domain: 'www.mckinsey.com', kind: 'blog', rating: 92, sourceType: 'organic' },
      { domain: 'www.gartner.com', kind: 'review', rating: 91, sourceType: 'paid' },
      { domain: 'www.sap.com', kind: 'blog', rating: 93, sourceType: 'direct' },
      { domain: 'www.oracle.com', kind: 'blog', rating: 94, sourceType: 'direct' },
      { domain: 'globexcorp.com', kind: 'own', rating: 61, sourceType: 'direct' },
    ],
    sitePaths: [
      '/',
      '/platform',
      '/platform/warehouse-management',
      '/platform/demand-forecasting',
      '/platform/transport-management',
      '/platform/control-tower',
      '/industries/manufacturing',
      '/industries/retail',
      '/customers',
      '/resources/whitepapers/ai-forecasting',
      '/resources/blog/inventory-optimisation-101',
      '/resources/blog/control-tower-guide',
      '/partners/sap',
      '/about',
      '/contact',
    ],
    dailyCrawlerVisits: 300,
    aiPages: { entitled: true, setup: null },
  },
  {
    ...SEED_BRANDS.initech,
    website: 'https://www.initech.com',
    domain: 'initech.com',
    role: 'editor',
    location: 'US',
    locationRegion: 'Texas',
    locationCity: 'Austin',
    extraMarkets: [],
    aliases: ['Initech Software', 'Initech TPS'],
    category: 'expense management',
    audiences: ['small businesses', 'finance teams', 'remote companies', 'accountants'],
    topics: ['expense reports', 'corporate cards', 'receipt scanning', 'travel policy'],
    competitors: ['Expensify', 'SAP Concur', 'Ramp', 'Brex', 'Navan'],
    subreddits: ['Accounting', 'smallbusiness', 'FinancialCareers'],
    prompts: [
      { text: 'Expensify vs SAP Concur for small businesses', intent: 'comparison' },
      { text: 'Ramp vs Brex corporate cards', intent: 'comparison' },
      { text: 'Initech vs Expensify receipt scanning', intent: 'comparison' },
      { text: 'alternatives to Concur for mid-size companies', intent: 'alternative' },
      { text: 'Expensify alternatives with better mobile apps', intent: 'alternative' },
      { text: 'best expense management software for small business', intent: 'best_for' },
      { text: 'best corporate card for remote teams', intent: 'best_for' },
      { text: 'best receipt scanning app for accountants', intent: 'best_for' },
      { text: 'how to write a travel and expense policy', intent: 'discovery' },
      { text: 'what is spend management', intent: 'discovery' },
      { text: 'which expense tool integrates with QuickBooks', intent: 'recommendation' },
      { text: 'recommend an expense report tool for finance teams', intent: 'recommendation' },
    ],
    citingDomains: [
      ...GENERAL_DOMAINS,
      ...SOFTWARE_DOMAINS.slice(0, 3),
      { domain: 'www.nerdwallet.com', kind: 'review', rating: 91, sourceType: 'organic' },
      { domain: 'www.investopedia.com', kind: 'wiki', rating: 92, sourceType: 'organic' },
      { domain: 'www.pcmag.com', kind: 'review', rating: 91, sourceType: 'organic' },
      { domain: 'www.businessinsider.com', kind: 'news', rating: 94, sourceType: 'organic' },
      { domain: 'www.accountingtoday.com', kind: 'news', rating: 74, sourceType: 'organic' },
      { domain: 'ramp.com', kind: 'blog', rating: 81, sourceType: 'direct' },
      { domain: 'initech.com', kind: 'own', rating: 55, sourceType: 'direct' },
    ],
    sitePaths: [
      '/',
      '/pricing',
      '/features/expense-reports',
      '/features/corporate-cards',
      '/features/receipt-scanning',
      '/integrations/quickbooks',
      '/integrations/xero',
      '/blog/travel-expense-policy-template',
      '/blog/what-is-spend-management',
      '/blog/tps-reports-explained',
      '/customers',
      '/security',
      '/about',
    ],
    dailyCrawlerVisits: 150,
    aiPages: { entitled: false, setup: null },
  },
  {
    ...SEED_BRANDS.acmeLabs,
    website: 'https://acmelabs.io',
    domain: 'acmelabs.io',
    role: 'owner',
    location: 'GB',
    locationRegion: 'England',
    locationCity: 'London',
    extraMarkets: ['IE'],
    aliases: ['Acme ML', 'AcmeLabs'],
    category: 'ML experiment tracking',
    audiences: ['ML engineers', 'research teams', 'data scientists', 'LLM developers'],
    topics: ['experiment tracking', 'model registry', 'LLM evaluation', 'hyperparameter tuning'],
    competitors: ['Weights & Biases', 'MLflow', 'Comet', 'Neptune.ai'],
    subreddits: ['MachineLearning', 'mlops', 'LocalLLaMA'],
    prompts: [
      { text: 'Weights & Biases vs MLflow for experiment tracking', intent: 'comparison' },
      { text: 'Acme Labs vs Comet for LLM evaluation', intent: 'comparison' },
      { text: 'Neptune.ai vs Weights & Biases pricing', intent: 'comparison' },
      { text: 'open source alternatives to Weights & Biases', intent: 'alternative' },
      { text: 'MLflow alternatives with a hosted UI', intent: 'alternative' },
      { text: 'best experiment tracking tool for research teams', intent: 'best_for' },
      { text: 'best LLM evaluation framework', intent: 'best_for' },
      { text: 'best model registry for small ML teams', intent: 'best_for' },
      { text: 'what is an ML model registry', intent: 'discovery' },
      { text: 'how to evaluate LLM outputs automatically', intent: 'discovery' },
      { text: 'which MLOps stack do startups use', intent: 'recommendation' },
      { text: 'recommend a tool to compare fine-tuning runs', intent: 'recommendation' },
    ],
    citingDomains: [
      ...GENERAL_DOMAINS,
      ...SOFTWARE_DOMAINS,
      { domain: 'huggingface.co', kind: 'blog', rating: 90, sourceType: 'organic' },
      { domain: 'towardsdatascience.com', kind: 'blog', rating: 88, sourceType: 'organic' },
      { domain: 'arxiv.org', kind: 'wiki', rating: 94, sourceType: 'organic' },
      { domain: 'wandb.ai', kind: 'blog', rating: 83, sourceType: 'direct' },
      { domain: 'acmelabs.io', kind: 'own', rating: 52, sourceType: 'direct' },
    ],
    sitePaths: [
      '/',
      '/pricing',
      '/product/experiments',
      '/product/registry',
      '/product/evals',
      '/docs',
      '/docs/quickstart',
      '/docs/python-sdk',
      '/docs/integrations/pytorch',
      '/blog/llm-evals-in-practice',
      '/blog/model-registry-guide',
      '/blog/hyperparameter-sweeps',
      '/research',
      '/about',
      '/careers',
    ],
    dailyCrawlerVisits: 400,
    aiPages: {
      entitled: true,
      setup: {
        enabled: false,
        platform: 'nextjs',
        features: ['aisummaryblock', 'entityrecognition'],
        crawlers: ['gptbot', 'claudebot'],
        requestsLimit: 25_000,
        percentageUsed: 12.5,
      },
    },
  },
];
