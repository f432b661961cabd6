/**
 * Every page that could ever cite a brand: URL, title, the prompts that surface it, the
 * model that cites it, its authority and its baseline sentiment. Snapshots pick which of
 * these are cited on a given day; the universe itself never changes except when a test
 * adds a URL it made up.
 */
import type { BrandProfile, CitingDomain, PromptIntent } from '../brand-profiles.js';
import { createRandom, type Random, shortId, uuidFrom } from '../random.js';

const SEARCH_MODELS = [
  'gpt-4o-search',
  'perplexity-sonar',
  'gemini-2.5-flash',
  'claude-sonnet-4',
  'google-ai-overviews',
  'copilot',
] as const;

export interface PromptInfo {
  readonly index: number;
  readonly text: string;
  readonly intent: PromptIntent;
  readonly tagId: string;
  /** how often the prompt is asked in the daily research run */
  readonly frequency: number;
  /** 0–1: how likely a page surfaced by this prompt mentions the brand */
  readonly brandStrength: number;
}

export interface CitedPage {
  readonly url: string;
  readonly domain: string;
  readonly title: string | null;
  readonly sourceType: string;
  readonly model: string;
  /** indexes into the universe's prompts; the first is the primary prompt */
  readonly prompts: readonly number[];
  readonly domainRating: number;
  readonly mentionsBrand: boolean;
  readonly baseSentiment: number;
  readonly baseAppearances: number;
  readonly baseCompetitors: readonly string[];
}

export interface CitationTag {
  readonly id: string;
  readonly name: string;
}

export interface CitationUniverse {
  readonly prompts: readonly PromptInfo[];
  readonly tags: readonly CitationTag[];
  readonly pages: CitedPage[];
  readonly byUrl: Map<string, CitedPage>;
  /** pages[0, seedActive) are cited in the first snapshot */
  readonly seedActive: number;
  /** pages[reserveStart, …) are never cited before the first advance */
  readonly reserveStart: number;
}

const UNIVERSE_SIZE = 110;
const SEED_ACTIVE = 70;
const RESERVE_START = 84;
const EMERGING_PROMPTS = 2;
const TITLE_YEAR = 2025;

const TAG_NAMES = ['Competitive', 'Buying guides', 'Education', 'Brand'] as const;

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const titleCase = (s: string) => s.split(' ').map(capitalise).join(' ');

function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 70);
}

function titleFor(profile: BrandProfile, prompt: PromptInfo, rng: Random): string {
  const [a, b, c] = rng.sample(profile.competitors, 3);
  const category = profile.category;
  const audience = rng.pick(profile.audiences);
  const topic = rng.pick(profile.topics);
  const us = rng.chance(0.4) ? profile.name : a!;
  switch (prompt.intent) {
    case 'comparison':
      return rng.pick([
        `${us} vs ${b}: Which ${titleCase(category)} Tool Is Right for You?`,
        `${a} vs ${b} vs ${c} (${TITLE_YEAR} Comparison)`,
        `${us} vs ${b}: Features, Pricing and Verdict`,
      ]);
    case 'alternative':
      return rng.pick([
        `${rng.int(5, 15)} Best ${a} Alternatives in ${TITLE_YEAR}`,
        `Looking for an alternative to ${a}? Here is what we switched to`,
        `${a} Alternatives for ${titleCase(audience)}`,
      ]);
    case 'best_for':
      return rng.pick([
        `The Best ${titleCase(category)} Tools for ${titleCase(audience)} in ${TITLE_YEAR}`,
        `Best ${titleCase(topic)} Picks for ${titleCase(audience)}`,
        `We Tested ${rng.int(8, 24)} Options: The Best for ${titleCase(audience)}`,
      ]);
    case 'discovery':
      return rng.pick([
        `What Is ${titleCase(category)}? A Complete Guide`,
        `${capitalise(topic)}: Everything You Need to Know`,
        `A Beginner's Guide to ${titleCase(topic)}`,
      ]);
    case 'recommendation':
      return rng.pick([
        `Which ${category} do you recommend for ${audience}?`,
        `What ${category} should ${audience} choose?`,
        `${us} Review ${TITLE_YEAR}: Pros, Cons and Pricing`,
      ]);
  }
}

function urlFor(site: CitingDomain, title: string, profile: BrandProfile, rng: Random, seed: string): string {
  const slug = slugify(title);
  const host = `https://${site.domain}`;
  switch (site.kind) {
    case 'wiki':
      return `${host}/wiki/${title
        .split(':')[0]!
        .trim()
        .replace(/[^A-Za-z0-9]+/g, '_')}`;
    case 'video':
      return `${host}/watch?v=${shortId(seed, 11)}`;
    case 'forum':
      if (site.domain === 'www.reddit.com') {
        return `${host}/r/${rng.pick(profile.subreddits)}/comments/${shortId(seed, 6)}/${slug.replace(/-/g, '_')}/`;
      }
      if (site.domain === 'news.ycombinator.com')
        return `${host}/item?id=${39_000_000 + rng.int(0, 999_999)}`;
      if (site.domain === 'stackoverflow.com')
        return `${host}/questions/${78_000_000 + rng.int(0, 999_999)}/${slug}`;
      return `${host}/${slug.split('-').map(capitalise).join('-')}`;
    case 'review':
      return `${host}/${rng.pick(['compare', 'reviews', 'best', 'categories'])}/${slug}`;
    case 'news':
      return `${host}/${TITLE_YEAR}/${String(rng.int(1, 12)).padStart(2, '0')}/${slug}/`;
    case 'blog':
      return `${host}/${rng.pick(['blog', 'guides', 'articles', 'resources'])}/${slug}`;
    case 'own':
      return `${host}/${rng.pick(['blog', 'compare', 'guides'])}/${slug}`;
  }
}

function sentimentFor(site: CitingDomain, rng: Random): number {
  // Own pages are glowing, forums are mixed, review sites lean positive.
  const base = site.kind === 'own' ? 85 : site.kind === 'forum' ? 50 : site.kind === 'review' ? 66 : 60;
  return Math.max(5, Math.min(97, base + rng.int(-28, 24)));
}

export function buildCitationUniverse(profile: BrandProfile): CitationUniverse {
  const seed = `citations:${profile.id}`;
  const rng = createRandom(seed);
  const tags = TAG_NAMES.map((name) => ({ id: uuidFrom(`${seed}:tag:${name}`), name }));
  const tagFor: Record<PromptIntent, CitationTag> = {
    comparison: tags[0]!,
    alternative: tags[0]!,
    best_for: tags[1]!,
    recommendation: tags[1]!,
    discovery: tags[2]!,
  };
  const prompts: PromptInfo[] = profile.prompts.map((p, index) => ({
    index,
    text: p.text,
    intent: p.intent,
    // Prompts naming the brand are tagged "Brand": that is how teams usually tag them.
    tagId: (p.text.includes(profile.name) ? tags[3]! : tagFor[p.intent]).id,
    frequency: rng.int(12, 480),
    // About a third of prompts are gaps: competitors are cited, the brand rarely is.
    brandStrength: p.text.includes(profile.name) ? 0.9 : rng.chance(0.3) ? 0.04 : 0.35 + rng.next() * 0.5,
  }));

  const pages: CitedPage[] = [];
  const byUrl = new Map<string, CitedPage>();
  const isGap = (p: PromptInfo) => p.brandStrength < 0.1;
  // The last two prompts are "emerging": only reserve pages carry them, so they are first
  // seen when a scripted advance adds those pages (queries view: is_new).
  const emerging = prompts.slice(-EMERGING_PROMPTS);
  const regular = prompts.slice(0, -EMERGING_PROMPTS);
  const ownSites = profile.citingDomains.filter((d) => d.kind === 'own');
  const otherSites = profile.citingDomains.filter((d) => d.kind !== 'own');
  const weightsOf = (sites: readonly CitingDomain[]) =>
    sites.map((d) => d.rating * (d.kind === 'own' ? 0.6 : 1));
  for (let attempt = 0; pages.length < UNIVERSE_SIZE && attempt < UNIVERSE_SIZE * 4; attempt++) {
    const slot = pages.length;
    const pageSeed = `${seed}:page:${attempt}`;
    const r = createRandom(pageSeed);
    const reserveSlot = slot - RESERVE_START;
    const primary =
      reserveSlot < 0
        ? regular[slot % regular.length]!
        : reserveSlot < EMERGING_PROMPTS * 2
          ? emerging[reserveSlot % EMERGING_PROMPTS]!
          : prompts[slot % prompts.length]!;
    // The brand's own pages always mention it, so they never carry a gap prompt.
    const sites = isGap(primary) ? otherSites : [...otherSites, ...ownSites];
    const site = sites[r.weighted(weightsOf(sites))]!;
    const extra = r.sample(
      regular.filter(
        (p) => p.index !== primary.index && p.intent === primary.intent && isGap(p) === isGap(primary),
      ),
      r.int(0, 2),
    );
    const title = titleFor(profile, primary, r);
    const url = urlFor(site, title, profile, r, pageSeed);
    if (byUrl.has(url)) continue;
    const mentionsBrand = site.kind === 'own' || r.chance(primary.brandStrength);
    const page: CitedPage = {
      url,
      domain: site.domain,
      title: r.chance(0.06) ? null : title,
      sourceType: site.sourceType,
      model: r.pick(SEARCH_MODELS),
      prompts: [primary.index, ...extra.map((p) => p.index)],
      domainRating: site.rating,
      mentionsBrand,
      baseSentiment: sentimentFor(site, r),
      baseAppearances: r.int(1, 9) + (site.rating > 90 ? r.int(0, 6) : 0),
      baseCompetitors:
        site.kind === 'own' ? [] : r.sample(profile.competitors, r.int(mentionsBrand ? 0 : 1, 3)).sort(),
    };
    pages.push(page);
    byUrl.set(url, page);
  }
  return { prompts, tags, pages, byUrl, seedActive: SEED_ACTIVE, reserveStart: RESERVE_START };
}

/**
 * A page for a URL a test or the demo made up (advanceSnapshot `add`). Throws when the
 * text is not an absolute http(s) URL.
 */
export function adHocPage(universe: CitationUniverse, profile: BrandProfile, url: string): CitedPage {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`not an absolute URL: ${url}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new Error(`not an http(s) URL: ${url}`);
  const r = createRandom(`adhoc:${profile.id}:${url}`);
  const prompt = universe.prompts[r.int(0, universe.prompts.length - 1)]!;
  const words = parsed.pathname.split('/').filter(Boolean).pop()?.replace(/[-_]+/g, ' ');
  const page: CitedPage = {
    url,
    domain: parsed.hostname.toLowerCase(),
    title: words ? titleCase(words) : parsed.hostname,
    sourceType: 'organic',
    model: r.pick(SEARCH_MODELS),
    prompts: [prompt.index],
    domainRating: r.int(30, 90),
    mentionsBrand: true,
    baseSentiment: r.int(55, 85),
    baseAppearances: r.int(1, 5),
    baseCompetitors: r.sample(profile.competitors, 1),
  };
  universe.pages.push(page);
  universe.byUrl.set(url, page);
  return page;
}
