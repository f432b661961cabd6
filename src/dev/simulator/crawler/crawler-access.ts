/**
 * GET /crawler/access and POST /crawler/access/preview-fix: findings derived from the
 * site's access policy, the bot access matrix, robots.txt and llms.txt. A fix is only
 * ever previewed; no public endpoint applies one (docs/api.md §4.10).
 */
import type { BrandProfile } from '../brand-profiles.js';
import { dayTimestamp } from '../dates.js';
import { shortId } from '../random.js';
import type { AccessPolicy } from './access-policy.js';
import { botRows } from './crawler-pages.js';
import { CRAWLERS, type CrawlerInfo, companyOf } from './crawlers.js';
import type { RangeTotals, TrafficModel } from './traffic-model.js';

interface Finding {
  id: string;
  severity: 'high' | 'medium' | 'low';
  category: 'robots' | 'firewall' | 'llms' | 'sitemap';
  title: string;
  description: string;
  /** what to do about it */
  recommendation: string;
  affected_bots: string[];
  fix_available: boolean;
  /** the file the fix changes and its content before and after */
  fix: { target: string; before: string; after: string };
}

function robotsTxt(profile: BrandProfile, policy: AccessPolicy, disallow = policy.robotsDisallow): string {
  const lines = ['User-agent: *', 'Allow: /', 'Disallow: /admin/', 'Disallow: /api/'];
  for (const id of disallow) {
    const crawler = CRAWLERS.find((c) => c.id === id);
    if (crawler) lines.push('', `User-agent: ${crawler.name}`, 'Disallow: /');
  }
  if (policy.sitemapInRobots) lines.push('', `Sitemap: ${profile.website}/sitemap.xml`);
  return `${lines.join('\n')}\n`;
}

function llmsTxt(profile: BrandProfile, model: TrafficModel): string {
  const links = model.pages
    .filter((p) => p.status !== 'cold' && !p.robots)
    .slice(0, 8)
    .map((p) => `- [${p.title.split(' | ')[0]}](${p.url})`);
  return `# ${profile.name}\n\n> ${profile.name} is a ${profile.category} company.\n\n## Key pages\n${links.join('\n')}\n`;
}

const findingId = (profile: BrandProfile, key: string) => `fnd_${shortId(`${profile.id}:${key}`, 12)}`;

/** robots.txt disallowing one crawler: high for a crawler that feeds answers, low for training. */
function robotsFinding(profile: BrandProfile, policy: AccessPolicy, id: string, robots: string): Finding {
  const answering = (c: CrawlerInfo) => c.intent !== 'training';
  const crawler = CRAWLERS.find((c) => c.id === id)!;
  return {
    id: findingId(profile, `robots:${id}`),
    severity: answering(crawler) ? 'high' : 'low',
    category: 'robots',
    title: `robots.txt blocks ${crawler.name}`,
    description: answering(crawler)
      ? `${crawler.name} feeds ${companyOf(crawler)} answers; while it is blocked your pages cannot be cited there.`
      : `${crawler.name} collects training data for ${companyOf(crawler)}. Blocking it is a valid choice.`,
    recommendation: answering(crawler)
      ? `Remove the Disallow rule for ${crawler.name} from robots.txt.`
      : `Keep the block, or remove its Disallow rule from robots.txt if you want ${companyOf(crawler)} models to learn about your brand.`,
    affected_bots: [crawler.name],
    fix_available: true,
    fix: {
      target: 'robots.txt',
      before: robots,
      after: robotsTxt(
        profile,
        policy,
        policy.robotsDisallow.filter((d) => d !== id),
      ),
    },
  };
}

export function findingsOf(profile: BrandProfile, policy: AccessPolicy, model: TrafficModel): Finding[] {
  const findings: Finding[] = [];
  const robots = robotsTxt(profile, policy);
  for (const id of policy.robotsDisallow) findings.push(robotsFinding(profile, policy, id, robots));
  for (const id of policy.firewallBlocked) {
    if (policy.robotsDisallow.includes(id)) continue;
    const crawler = CRAWLERS.find((c) => c.id === id)!;
    findings.push({
      id: findingId(profile, `firewall:${id}`),
      severity: 'high',
      category: 'firewall',
      title: `${crawler.name} is allowed by robots.txt but receives 403`,
      description: `Your firewall or CDN rejects ${crawler.name}, so it cannot read the pages robots.txt allows.`,
      recommendation: `Allow ${crawler.name}'s published IP ranges or user agent in your firewall or CDN.`,
      affected_bots: [crawler.name],
      fix_available: true,
      fix: {
        target: 'firewall rule',
        before: `block if http.user_agent contains "${crawler.name}"`,
        after: `allow if http.user_agent contains "${crawler.name}" and ip.src in $${crawler.platform}_crawler_ranges`,
      },
    });
  }
  if (!policy.hasLlmsTxt) {
    findings.push({
      id: findingId(profile, 'llms:missing'),
      severity: 'medium',
      category: 'llms',
      title: 'No llms.txt file',
      description: 'Without an llms.txt file, AI agents have no list of your most important pages.',
      recommendation: 'Publish an llms.txt file at the root of your site that lists your key pages.',
      affected_bots: CRAWLERS.filter((c) => c.intent !== 'training').map((c) => c.name),
      fix_available: true,
      fix: { target: 'llms.txt', before: '', after: llmsTxt(profile, model) },
    });
  }
  if (!policy.sitemapInRobots) {
    findings.push({
      id: findingId(profile, 'sitemap:robots'),
      severity: 'low',
      category: 'sitemap',
      title: 'robots.txt does not reference your sitemap',
      description: 'Crawlers find new pages faster when robots.txt names the sitemap.',
      recommendation: 'Add a Sitemap line with your sitemap URL to robots.txt.',
      affected_bots: [],
      fix_available: true,
      fix: {
        target: 'robots.txt',
        before: robots,
        after: `${robots}\nSitemap: ${profile.website}/sitemap.xml\n`,
      },
    });
  }
  return findings;
}

export function accessView(
  profile: BrandProfile,
  policy: AccessPolicy,
  model: TrafficModel,
  totals: RangeTotals,
  lastSubmission: unknown,
) {
  const fetchedAt = dayTimestamp(model.today, 2 * 3_600_000);
  return {
    findings: findingsOf(profile, policy, model).map(({ fix: _fix, ...f }) => f),
    bot_access: botRows(model, totals, policy).map((b) => ({
      crawler: b.name,
      id: b.id,
      platform: b.platform,
      intent: b.intent,
      robots_txt: b.robots_txt,
      http_status: b.typical_status,
      allowed: b.robots_txt === 'allowed' && b.typical_status === 200,
      last_seen_at: b.last_seen_at,
    })),
    robots: {
      url: `${profile.website}/robots.txt`,
      status_code: 200,
      content: robotsTxt(profile, policy),
      last_fetched_at: fetchedAt,
    },
    llms: {
      url: `${profile.website}/llms.txt`,
      status_code: policy.hasLlmsTxt ? 200 : 404,
      present: policy.hasLlmsTxt,
      content: policy.hasLlmsTxt ? llmsTxt(profile, model) : null,
      last_fetched_at: fetchedAt,
    },
    submit_to_search: { protocol: 'indexnow', key_verified: true, last_submission: lastSubmission },
  };
}

/** Unified-diff-like lines between two texts (line sets; enough for a preview). */
export function diffLines(before: string, after: string): string[] {
  const a = before.split('\n');
  const b = after.split('\n');
  return [
    ...a.filter((l) => !b.includes(l)).map((l) => `- ${l}`),
    ...b.filter((l) => !a.includes(l)).map((l) => `+ ${l}`),
  ];
}
