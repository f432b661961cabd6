/**
 * The crawler analytics endpoints (docs/api.md §4.9, §4.10; parameters from docs/api.md §10).
 */
import { accessView, diffLines, findingsOf } from '../crawler/crawler-access.js';
import { botDetailsView, pageDetailsView, pathDetailsView } from '../crawler/crawler-drawers.js';
import { liveView } from '../crawler/crawler-live.js';
import { type CrawlerContext, overviewView } from '../crawler/crawler-overview.js';
import { pagesView } from '../crawler/crawler-pages.js';
import { parseDateRange, rangeJson } from '../crawler/date-range.js';
import { detailShape, invalidParam } from '../http-error.js';
import { requiredString } from '../params.js';
import { uuidFrom } from '../random.js';
import type { BrandState, Submission } from '../world.js';
import { brandOf, type Handler, type HandlerContext, ok, requireEditor } from './handler-context.js';

const MAX_SUBMIT_URLS = 100;

function crawlerContext(ctx: HandlerContext, brand: BrandState): CrawlerContext {
  return {
    profile: brand.profile,
    policy: ctx.world.accessPolicy(brand),
    model: ctx.world.trafficModel(brand),
    input: ctx.input,
  };
}

const withBrand =
  (view: (c: CrawlerContext) => unknown): Handler =>
  (ctx) =>
    ok(view(crawlerContext(ctx, brandOf(ctx))));

export const getCrawlerOverview = withBrand(overviewView);
export const getCrawlerLive = withBrand(liveView);
export const getCrawlerPages = withBrand(pagesView);
export const getCrawlerPageDetails = withBrand(pageDetailsView);
export const getCrawlerPathDetails = withBrand(pathDetailsView);
export const getCrawlerBotDetails = withBrand(botDetailsView);

function submissionStatus(s: Submission, now: number): 'pending' | 'success' | 'failed' {
  if (now < s.completesAt) return 'pending';
  return s.error === null ? 'success' : 'failed';
}

function submissionJson(s: Submission, now: number) {
  const status = submissionStatus(s, now);
  return {
    id: s.id,
    status,
    protocol: 'indexnow',
    submitted_at: new Date(s.submittedAt).toISOString(),
    completed_at: status === 'pending' ? null : new Date(s.completesAt).toISOString(),
    urls_submitted: s.urls.length,
    urls: s.urls,
    error: status === 'failed' ? s.error : null,
  };
}

export const getCrawlerAccess: Handler = (ctx) => {
  const brand = brandOf(ctx);
  const c = crawlerContext(ctx, brand);
  const range = parseDateRange(ctx.input, c.model.today);
  const totals = c.model.range(range.startDay, range.endDay);
  const last = brand.submissions.at(-1);
  return ok({
    brand_id: brand.profile.id,
    range: rangeJson(range),
    ...accessView(c.profile, c.policy, c.model, totals, last ? submissionJson(last, ctx.now) : null),
  });
};

export const previewAccessFix: Handler = (ctx) => {
  const brand = brandOf(ctx);
  const findingId = requiredString(ctx.input, 'finding_id');
  const c = crawlerContext(ctx, brand);
  const finding = findingsOf(c.profile, c.policy, c.model).find((f) => f.id === findingId);
  if (!finding)
    throw detailShape(404, { code: 'finding_not_found', message: `No finding ${findingId} for this brand` });
  return ok({
    brand_id: brand.profile.id,
    finding_id: finding.id,
    title: finding.title,
    preview: {
      target: finding.fix.target,
      before: finding.fix.before,
      after: finding.fix.after,
      diff: diffLines(finding.fix.before, finding.fix.after),
    },
    applied: false,
    note: 'Preview only: make this change on your site. The service never applies fixes.',
  });
};

export const verificationPing: Handler = (ctx) => {
  const brand = brandOf(ctx);
  requireEditor(brand, 'The verification ping');
  const id = uuidFrom(`ping:${brand.profile.id}:${ctx.now}`);
  return ok({
    brand_id: brand.profile.id,
    status: 'sent',
    ping_id: id,
    sent_at: new Date(ctx.now).toISOString(),
    target_url: `${brand.profile.website}/?visibility_ping=${id.slice(0, 8)}`,
    user_agent: 'VisibilityBot-Verify/1.0',
    expected_within_seconds: 60,
  });
};

function parseUrls(ctx: HandlerContext): string[] {
  const raw = (ctx.input.body as Record<string, unknown> | undefined)?.['urls'] ?? ctx.input.query['urls'];
  // docs/api.md §10: `urls` is one string of comma-separated absolute URLs.
  if (typeof raw !== 'string')
    throw invalidParam('urls', 'must be a string of comma-separated absolute URLs');
  const urls = raw
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);
  if (urls.length === 0) throw invalidParam('urls', 'must name at least one URL');
  if (urls.length > MAX_SUBMIT_URLS)
    throw invalidParam('urls', `at most ${MAX_SUBMIT_URLS} URLs per submission`);
  for (const url of urls) {
    let parsed: URL | null = null;
    try {
      parsed = new URL(url);
    } catch {
      parsed = null;
    }
    if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
      throw invalidParam('urls', `'${url}' is not an absolute http(s) URL`);
    }
  }
  return urls;
}

export const submitToSearch: Handler = (ctx) => {
  const brand = brandOf(ctx);
  requireEditor(brand, 'Submitting URLs to search');
  const urls = parseUrls(ctx);
  const domain = brand.profile.domain;
  // IndexNow only accepts URLs of the host whose key it verified: others fail later.
  const foreign = urls.filter((u) => {
    const host = new URL(u).hostname.toLowerCase();
    return host !== domain && !host.endsWith(`.${domain}`);
  });
  const submission: Submission = {
    id: uuidFrom(`submission:${brand.profile.id}:${brand.submissions.length}:${ctx.now}`),
    urls,
    submittedAt: ctx.now,
    completesAt: ctx.now + ctx.world.generationMs,
    error: foreign.length > 0 ? `${foreign.length} URL(s) are not on ${domain}` : null,
  };
  brand.submissions.push(submission);
  return ok({
    brand_id: brand.profile.id,
    submission_id: submission.id,
    ...submissionJson(submission, ctx.now),
  });
};

export const getSubmitToSearchStatus: Handler = (ctx) => {
  const brand = brandOf(ctx);
  const all = brand.submissions.map((s) => submissionJson(s, ctx.now));
  const last = all.at(-1) ?? null;
  return ok({
    brand_id: brand.profile.id,
    status: last?.status ?? null,
    last_submission: last,
    summary: {
      total_submissions: all.length,
      urls_submitted: all.reduce((n, s) => n + s.urls_submitted, 0),
      successful: all.filter((s) => s.status === 'success').length,
      failed: all.filter((s) => s.status === 'failed').length,
      pending: all.filter((s) => s.status === 'pending').length,
    },
  });
};
