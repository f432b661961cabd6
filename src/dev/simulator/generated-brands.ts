/**
 * Brands beyond the five seed profiles, for demos and benchmarks at scale (`simulator
 * --brands N`). Each is built from an industry template and a seeded random generator
 * named by its index, so brand 17 is the same brand in every run and on every machine,
 * and adding brands never changes the earlier ones. The seed profiles keep their special
 * roles (viewer, no location, no AI Pages entitlement, ambiguous names); generated brands
 * are ordinary customers with a realistic spread of markets, crawler volume and AI Pages
 * usage.
 */
import { type BrandProfile, type CitingDomain, GENERAL_DOMAINS, type PromptSeed } from './brand-profiles.js';
import { createRandom, type Random, uuidFrom } from './random.js';

/** What brands of one industry share; each generated brand draws its profile from one. */
interface Industry
  extends Pick<BrandProfile, 'category' | 'audiences' | 'topics' | 'competitors' | 'subreddits'> {
  /** words a brand name is made of */
  readonly nouns: readonly string[];
  /** the profile's citingDomains */
  readonly domains: readonly CitingDomain[];
  /** the profile's sitePaths */
  readonly paths: readonly string[];
}

const review = (domain: string, rating: number): CitingDomain => ({
  domain,
  kind: 'review',
  rating,
  sourceType: 'organic',
});
const news = (domain: string, rating: number): CitingDomain => ({
  domain,
  kind: 'news',
  rating,
  sourceType: 'organic',
});
const blog = (domain: string, rating: number): CitingDomain => ({
  domain,
  kind: 'blog',
  rating,
  sourceType: 'organic',
});

const INDUSTRIES: readonly Industry[] = [
  {
    category: 'project management software',
    nouns: ['Works', 'Boards', 'Flow', 'Planner', 'HQ'],
    audiences: ['agencies', 'remote teams', 'engineering teams', 'marketing teams', 'nonprofits'],
    topics: ['kanban boards', 'gantt charts', 'time tracking', 'resource planning', 'sprint planning'],
    competitors: ['Asana', 'Monday.com', 'ClickUp', 'Trello', 'Wrike', 'Notion'],
    subreddits: ['projectmanagement', 'agile', 'productivity'],
    domains: [
      review('www.g2.com', 91),
      review('www.capterra.com', 90),
      news('techcrunch.com', 93),
      blog('zapier.com', 91),
    ],
    paths: ['/features', '/features/boards', '/features/timeline', '/templates', '/integrations', '/compare'],
  },
  {
    category: 'accounting software',
    nouns: ['Ledger', 'Books', 'Finance', 'Pay', 'Counts'],
    audiences: ['freelancers', 'small businesses', 'accountants', 'e-commerce sellers', 'startups'],
    topics: ['invoicing', 'expense tracking', 'payroll', 'tax filing', 'bank reconciliation'],
    competitors: ['QuickBooks', 'Xero', 'FreshBooks', 'Wave', 'Sage', 'Zoho Books'],
    subreddits: ['Accounting', 'smallbusiness', 'Bookkeeping'],
    domains: [
      review('www.nerdwallet.com', 92),
      review('www.capterra.com', 90),
      news('www.investopedia.com', 93),
      blog('www.accountingtoday.com', 80),
    ],
    paths: ['/invoicing', '/expenses', '/payroll', '/pricing', '/accountants', '/guides/bookkeeping-basics'],
  },
  {
    category: 'running shoes',
    nouns: ['Running', 'Athletics', 'Stride', 'Footwear', 'Run Co.'],
    audiences: ['marathon runners', 'beginners', 'trail runners', 'flat feet', 'wide feet'],
    topics: ['cushioning', 'carbon plates', 'heel drop', 'trail grip', 'durability'],
    competitors: ['Nike', 'Hoka', 'Brooks', 'ASICS', 'New Balance', 'Saucony'],
    subreddits: ['RunningShoeGeeks', 'running', 'trailrunning'],
    domains: [
      review('www.runnersworld.com', 88),
      review('runrepeat.com', 82),
      news('www.outsideonline.com', 85),
      review('believeintherun.com', 74),
    ],
    paths: [
      '/collections/road',
      '/collections/trail',
      '/products/tempo-2',
      '/fit-guide',
      '/journal/how-to-choose',
      '/stores',
    ],
  },
  {
    category: 'meal kit delivery',
    nouns: ['Kitchen', 'Table', 'Meals', 'Fresh', 'Pantry'],
    audiences: ['families', 'couples', 'vegetarians', 'busy professionals', 'fitness fans'],
    topics: ['recipes', 'delivery areas', 'diet plans', 'pricing per serving', 'packaging'],
    competitors: ['HelloFresh', 'Blue Apron', 'Home Chef', 'Factor', 'Green Chef', 'EveryPlate'],
    subreddits: ['mealkits', 'MealPrepSunday', 'Cooking'],
    domains: [
      review('www.goodhousekeeping.com', 88),
      review('www.tomsguide.com', 90),
      news('www.cnet.com', 93),
      blog('www.seriouseats.com', 86),
    ],
    paths: ['/menu', '/plans', '/recipes', '/how-it-works', '/gift-cards', '/sustainability'],
  },
  {
    category: 'cybersecurity platform',
    nouns: ['Security', 'Shield', 'Guard', 'Defense', 'Labs'],
    audiences: ['mid-market IT teams', 'MSPs', 'healthcare', 'financial services', 'SOC analysts'],
    topics: ['endpoint detection', 'zero trust', 'SIEM', 'phishing protection', 'incident response'],
    competitors: ['CrowdStrike', 'SentinelOne', 'Palo Alto Networks', 'Sophos', 'Fortinet', 'Darktrace'],
    subreddits: ['cybersecurity', 'netsec', 'sysadmin'],
    domains: [
      review('www.gartner.com', 91),
      news('www.darkreading.com', 85),
      news('www.bleepingcomputer.com', 86),
      review('www.peerspot.com', 78),
    ],
    paths: [
      '/platform',
      '/platform/edr',
      '/solutions/zero-trust',
      '/resources/threat-report',
      '/partners',
      '/trust',
    ],
  },
  {
    category: 'travel booking',
    nouns: ['Travel', 'Trips', 'Journeys', 'Stays', 'Voyages'],
    audiences: ['budget travellers', 'families', 'business travellers', 'backpackers', 'honeymooners'],
    topics: ['flight deals', 'boutique hotels', 'travel insurance', 'city breaks', 'loyalty points'],
    competitors: ['Expedia', 'Booking.com', 'Kayak', 'Airbnb', 'Hopper', 'Trip.com'],
    subreddits: ['travel', 'solotravel', 'awardtravel'],
    domains: [
      review('www.tripadvisor.com', 93),
      news('www.lonelyplanet.com', 90),
      blog('thepointsguy.com', 86),
      news('www.cntraveler.com', 88),
    ],
    paths: ['/flights', '/hotels', '/deals', '/destinations', '/guides/packing-list', '/help'],
  },
];

const NAME_STARTS = [
  'Bright',
  'Cedar',
  'Kestrel',
  'Lumen',
  'Nova',
  'Orbit',
  'Pine',
  'Quartz',
  'River',
  'Summit',
  'Tidal',
  'Umber',
  'Vantage',
  'Willow',
  'Zephyr',
  'Atlas',
  'Beacon',
  'Copper',
  'Delta',
  'Ember',
  'Falcon',
  'Granite',
  'Harbor',
  'Iris',
  'Juniper',
  'Keystone',
  'Lark',
  'Maple',
  'Nimbus',
  'Onyx',
];
const NAME_ENDS = ['', 'ly', 'wise', 'field', 'stone', 'path', 'point', 'mark', 'gate', 'line'];
const PLATFORMS = ['cloudflare', 'vercel', 'netlify', 'fastly', 'other'];
const AI_FEATURES = [
  'structureddatainjection',
  'keyfactsextraction',
  'automatedfaqgeneration',
  'aisummaryblock',
  'entityrecognition',
];
const AI_CRAWLERS = ['gptbot', 'oai-searchbot', 'claudebot', 'perplexitybot', 'google-extended'];
const MARKETS = ['US', 'GB', 'DE', 'FR', 'CA', 'AU', 'NL', 'ES', 'IT', 'SE', 'JP', 'BR', 'IN'];
const COMMON_PATHS = ['/', '/pricing', '/about', '/blog', '/contact', '/careers', '/legal/privacy'];

/** The name of generated brand `index` (0-based); distinct for the first 300 × industries. */
function nameOf(index: number, rng: Random, industry: Industry): string {
  const start = NAME_STARTS[index % NAME_STARTS.length]!;
  const end = NAME_ENDS[Math.floor(index / NAME_STARTS.length) % NAME_ENDS.length]!;
  const round = Math.floor(index / (NAME_STARTS.length * NAME_ENDS.length));
  const noun = rng.pick(industry.nouns);
  return `${start}${end} ${noun}${round > 0 ? ` ${round + 1}` : ''}`;
}

function promptsFor(name: string, industry: Industry, rng: Random): PromptSeed[] {
  const [a, b, c] = rng.sample(industry.competitors, 3) as [string, string, string];
  const [aud1, aud2] = rng.sample(industry.audiences, 2) as [string, string];
  const [t1, t2] = rng.sample(industry.topics, 2) as [string, string];
  const cat = industry.category;
  return [
    { text: `${name} vs ${a} for ${aud1}`, intent: 'comparison' },
    { text: `${a} vs ${b}: which ${cat} is better`, intent: 'comparison' },
    { text: `${name} or ${c} for ${t1}`, intent: 'comparison' },
    { text: `best alternatives to ${a}`, intent: 'alternative' },
    { text: `cheaper alternative to ${b} with ${t2}`, intent: 'alternative' },
    { text: `best ${cat} for ${aud1}`, intent: 'best_for' },
    { text: `best ${cat} for ${aud2}`, intent: 'best_for' },
    { text: `top ${cat} with good ${t1}`, intent: 'best_for' },
    { text: `what is ${t1}`, intent: 'discovery' },
    { text: `how to compare ${cat} options`, intent: 'discovery' },
    { text: `which ${cat} should ${aud2} choose`, intent: 'recommendation' },
    { text: `recommend a ${cat} for ${t2}`, intent: 'recommendation' },
  ];
}

/** Generated brand `index` (0-based, counted after the seed profiles). */
function generatedBrandProfile(index: number): BrandProfile {
  const rng = createRandom(`generated-brand:${index}`);
  const industry = INDUSTRIES[index % INDUSTRIES.length]!;
  const name = nameOf(index, rng, industry);
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '');
  const domain = `${slug}.example.com`;
  const location = rng.chance(0.9) ? rng.pick(MARKETS) : null;
  const extraMarkets = rng.sample(
    MARKETS.filter((m) => m !== location),
    location === null ? 0 : rng.int(0, 3),
  );
  const entitled = rng.chance(0.85);
  const setUp = entitled && rng.chance(0.85);
  const sitePaths = [
    ...COMMON_PATHS,
    ...industry.paths,
    ...industry.topics.map((t) => `/blog/${t.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`),
  ];
  return {
    id: uuidFrom(`generated-brand:${index}`),
    name,
    website: `https://www.${domain}`,
    domain,
    role: rng.chance(0.9) ? 'owner' : 'editor',
    location,
    locationRegion: null,
    locationCity: null,
    extraMarkets,
    aliases: [name.split(' ')[0]!],
    category: industry.category,
    audiences: industry.audiences,
    topics: industry.topics,
    competitors: industry.competitors,
    subreddits: industry.subreddits,
    prompts: promptsFor(name, industry, rng),
    citingDomains: [
      ...GENERAL_DOMAINS,
      ...industry.domains,
      { domain, kind: 'own', rating: rng.int(35, 75), sourceType: 'direct' },
    ],
    sitePaths,
    // Log-uniform from 50 to 5,000 visits a day: most sites are small, a few are busy.
    dailyCrawlerVisits: Math.round(50 * 100 ** rng.next()),
    aiPages: {
      entitled,
      setup: setUp
        ? {
            enabled: rng.chance(0.95),
            platform: rng.pick(PLATFORMS),
            features: rng.sample(AI_FEATURES, rng.int(2, AI_FEATURES.length)),
            crawlers: rng.sample(AI_CRAWLERS, rng.int(2, AI_CRAWLERS.length)),
            requestsLimit: rng.pick([10_000, 25_000, 50_000, 100_000]),
            percentageUsed: rng.int(3, 97),
            // From the index, not the random sequence, so every other field stays as it was.
            dailyGrowth: 0.5 + (index % 8) / 2,
          }
        : null,
    },
  };
}

/** The seed profiles followed by generated ones, `total` in all (never fewer than the seeds). */
export function brandProfilesFor(
  seeds: readonly BrandProfile[],
  total: number | undefined,
): readonly BrandProfile[] {
  const extra = Math.max(0, (total ?? seeds.length) - seeds.length);
  return [...seeds, ...Array.from({ length: extra }, (_, i) => generatedBrandProfile(i))];
}
