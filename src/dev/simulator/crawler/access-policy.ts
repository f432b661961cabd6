/**
 * How each seed brand's site treats AI crawlers: robots.txt rules, firewall blocks and
 * llms.txt. The Access tab's findings and the 403s in the visit stream follow from this.
 */
import { SEED_BRANDS } from '../seed-brands.js';

export interface AccessPolicy {
  /** crawler ids disallowed in robots.txt */
  readonly robotsDisallow: readonly string[];
  /** crawler ids the site's firewall answers 403 */
  readonly firewallBlocked: readonly string[];
  readonly hasLlmsTxt: boolean;
  readonly sitemapInRobots: boolean;
}

const POLICIES: Readonly<Record<string, AccessPolicy>> = {
  [SEED_BRANDS.acme.id]: {
    robotsDisallow: ['ccbot', 'bytespider'],
    firewallBlocked: ['bytespider'],
    hasLlmsTxt: true,
    sitemapInRobots: true,
  },
  [SEED_BRANDS.northwind.id]: {
    robotsDisallow: ['bytespider'],
    firewallBlocked: [],
    hasLlmsTxt: false,
    sitemapInRobots: true,
  },
  [SEED_BRANDS.globex.id]: {
    // A legacy rule blocks GPTBot and PerplexityBot: the Access tab's headline finding.
    robotsDisallow: ['gptbot', 'perplexitybot', 'ccbot'],
    firewallBlocked: [],
    hasLlmsTxt: false,
    sitemapInRobots: false,
  },
  [SEED_BRANDS.initech.id]: {
    // robots.txt allows ClaudeBot but the WAF rejects it: a contradiction worth a finding.
    robotsDisallow: [],
    firewallBlocked: ['claudebot'],
    hasLlmsTxt: false,
    sitemapInRobots: true,
  },
  [SEED_BRANDS.acmeLabs.id]: {
    robotsDisallow: ['meta-externalagent'],
    firewallBlocked: [],
    hasLlmsTxt: true,
    sitemapInRobots: true,
  },
};

const DEFAULT_POLICY: AccessPolicy = {
  robotsDisallow: [],
  firewallBlocked: [],
  hasLlmsTxt: false,
  sitemapInRobots: true,
};

export function accessPolicyOf(brandId: string): AccessPolicy {
  return POLICIES[brandId] ?? DEFAULT_POLICY;
}
