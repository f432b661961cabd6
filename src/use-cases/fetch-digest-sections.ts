/**
 * What a digest is made of, fetched for one brand: its active content ideas, the citation
 * feed of the last day, the crawler periods (7 whole days against the 7 before) and AI
 * Pages. The scheduled digest (jobs/digest-job.ts) reuses what the polls saw when it is
 * fresh and fetches the rest; "Post the digest now" fetches all four. Each section stands
 * alone: a request that fails makes its section say so; only a rejected key, a spent quota
 * or a cancelled run stops the digest.
 */
import type { Failed } from '../alerts/compose-digest.js';
import type { AiPagesInput } from '../alerts/detect-ai-pages.js';
import type { CrawlerPeriods } from '../alerts/detect-crawler.js';
import { NoEntitlementError } from '../api/errors.js';
import type { CitationFeedResponse } from '../api/schemas/citations.js';
import type { ContentIdea } from '../api/schemas/content-ideas.js';
import type { CallOptions, VisibilityApi } from '../api/visibility-api.js';
import { explainError } from '../messages/explain-error.js';
import { classifyJobError } from './classify-job-error.js';
import { fetchCrawlerPeriods } from './crawler-periods.js';

/** Ideas read for the digest; it lists the top few by score. */
export const DIGEST_IDEAS_LIMIT = 50;

/** A section's request: its value, or what to say instead. The key and the quota stop everything. */
export async function digestSection<T>(request: () => Promise<T>): Promise<T | Failed> {
  try {
    return await request();
  } catch (err) {
    if (classifyJobError(err).kind !== 'brand_failed') throw err;
    return { error: explainError(err).message };
  }
}

/** The brand's AI Pages record, or "no entitlement" when the plan does not include it. */
export async function fetchAiPagesInput(
  api: Pick<VisibilityApi, 'getAiPages'>,
  brandId: string,
  opts: CallOptions,
): Promise<AiPagesInput> {
  try {
    return await api.getAiPages({ brandId }, opts);
  } catch (err) {
    if (!(err instanceof NoEntitlementError)) throw err;
    return { unavailable: 'no_entitlement' };
  }
}

interface DigestSections {
  ideas: ContentIdea[] | Failed;
  feed: CitationFeedResponse | Failed;
  crawler: CrawlerPeriods | Failed;
  aiPages: AiPagesInput | Failed;
}

/** All four sections, fetched now, one after the other (the limiter paces them anyway). */
export async function fetchDigestSections(
  api: Pick<VisibilityApi, 'getContentIdeas' | 'getCitationFeed' | 'getCrawlerOverview' | 'getAiPages'>,
  brandId: string,
  nowMs: number,
  opts: CallOptions,
): Promise<DigestSections> {
  const ideas = await digestSection(
    async () =>
      (await api.getContentIdeas({ brandId, status: 'active', limit: DIGEST_IDEAS_LIMIT }, opts)).ideas,
  );
  const feed = await digestSection(() => api.getCitationFeed({ brandId, daysBack: 1 }, opts));
  const crawler = await digestSection(() => fetchCrawlerPeriods(api, brandId, nowMs, opts));
  const aiPages = await digestSection(() => fetchAiPagesInput(api, brandId, opts));
  return { ideas, feed, crawler, aiPages };
}
