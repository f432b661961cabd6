/**
 * `/visibility aipages <brand>`: whether Hosted AI Pages is on, for which domain and
 * platform, with which features and crawlers (human names for the service's lowercase
 * identifiers), and the month's usage as a progress bar with the reset date. A brand
 * without AI Pages set up (config null, docs/api.md §4.11) gets the steps to set it up.
 */

import type { AiPagesRecord } from '../../../api/schemas/index.js';
import { figureName, figureWords } from '../../../figures/glossary.js';
import type { KnownBlock } from '../../../messages/block-kit-types.js';
import { formatCount, formatUsagePercent } from '../../../messages/format-number.js';
import { escapeMrkdwn, joinMrkdwn, type Mrkdwn, mrkdwn, slackDay } from '../../../messages/mrkdwn.js';
import { ownLookup } from '../../../messages/own-lookup.js';
import type { Reply } from '../../../messages/reply.js';
import { truncatePlain } from '../../../messages/truncate-mrkdwn.js';
import { compact, fieldsBlock, headerBlock, sectionBlock } from '../../views/basic-blocks.js';
import { fallbackText } from '../../views/fallback-text.js';
import { inlineText } from '../../views/link-or-text.js';
import { progressBar } from '../../views/progress-bar.js';

/** docs/api.md §2: the known features, as "lowercase concatenated words". */
const FEATURES: Readonly<Record<string, string>> = {
  structureddatainjection: 'Structured data injection',
  keyfactsextraction: 'Key facts extraction',
  automatedfaqgeneration: 'Automated FAQ generation',
  aisummaryblock: 'AI summary block',
  entityrecognition: 'Entity recognition',
};

const PLATFORMS: Readonly<Record<string, string>> = {
  cloudflare: 'Cloudflare',
  vercel: 'Vercel',
  netlify: 'Netlify',
  nextjs: 'Next.js',
  cloudfront: 'Amazon CloudFront',
  wordpress: 'WordPress',
  node: 'Node.js',
  nginx: 'NGINX',
  other: 'Other',
};

const CRAWLERS: Readonly<Record<string, string>> = {
  gptbot: 'GPTBot',
  'oai-searchbot': 'OAI-SearchBot',
  'chatgpt-user': 'ChatGPT-User',
  claudebot: 'ClaudeBot',
  'claude-web': 'Claude-Web',
  perplexitybot: 'PerplexityBot',
  'google-extended': 'Google-Extended',
  googleother: 'GoogleOther',
  bingbot: 'Bingbot',
  applebot: 'Applebot',
  'meta-externalagent': 'Meta-ExternalAgent',
  bytespider: 'Bytespider',
  ccbot: 'CCBot',
};

export const featureName = (id: string) => ownLookup(FEATURES, id.toLowerCase()) ?? id;
export const platformName = (id: string) => ownLookup(PLATFORMS, id.toLowerCase()) ?? id;
const crawlerName = (id: string) => ownLookup(CRAWLERS, id.toLowerCase()) ?? id;

const list = (ids: readonly string[], name: (id: string) => string, max = 12): Mrkdwn =>
  ids.length === 0
    ? mrkdwn`none`
    : mrkdwn`${joinMrkdwn(
        ids.slice(0, max).map((id) => inlineText(name(id), 60)),
        mrkdwn`, `,
      )}${ids.length > max ? mrkdwn` +${ids.length - max} more` : mrkdwn``}`;

/**
 * The reset as the day the billing period starts again (the service resets at the start of
 * that UTC day), as a date token; where Slack cannot render it, "Dec 1, 2026".
 */
function resetText(iso: string): Mrkdwn {
  return Number.isFinite(Date.parse(iso)) ? slackDay(iso) : inlineText(iso, 40);
}

export function aiPagesReply(brand: { id: string; name: string }, record: AiPagesRecord): Reply {
  const name = escapeMrkdwn(truncatePlain(brand.name, 100));
  const { config, usage } = record;
  if (config === null) {
    const text = joinMrkdwn(
      [
        mrkdwn`*Hosted AI Pages is not set up for ${name}.*`,
        mrkdwn`AI Pages serves AI-friendly versions of your pages to AI crawlers (structured data, key facts, FAQs, an AI summary). To set it up:`,
        mrkdwn`1. In the Brand Visibility dashboard, open *AI Pages* for this brand.`,
        mrkdwn`2. Enter the domain to optimise and pick your platform (Cloudflare, Vercel, Netlify, Next.js, CloudFront, WordPress, Node.js, NGINX or other), then follow its connection steps.`,
        mrkdwn`3. Choose the features and the AI crawlers to serve.`,
        mrkdwn`Then \`/visibility aipages "${name}"\` shows its status and usage here.`,
      ],
      mrkdwn`\n`,
    );
    return {
      text: fallbackText(mrkdwn`Hosted AI Pages is not set up for ${escapeMrkdwn(brand.name)}.`),
      blocks: [headerBlock(mrkdwn`AI Pages · ${escapeMrkdwn(brand.name)}`), sectionBlock(text)],
    };
  }
  const blocks: KnownBlock[] = compact([
    headerBlock(mrkdwn`AI Pages · ${escapeMrkdwn(brand.name)}`),
    fieldsBlock([
      {
        label: mrkdwn`Status`,
        value: config.enabled ? mrkdwn`:large_green_circle: Enabled` : mrkdwn`:red_circle: Disabled`,
      },
      { label: mrkdwn`Domain`, value: inlineText(config.domain, 200) },
      {
        label: mrkdwn`Platform`,
        value: config.platform ? inlineText(platformName(config.platform), 60) : mrkdwn`not set`,
      },
    ]),
    sectionBlock(
      mrkdwn`*Features*: ${list(config.features, featureName)}\n*Crawlers served*: ${list(config.crawlers, crawlerName)}`,
    ),
  ]);
  if (usage) {
    blocks.push(
      sectionBlock(
        mrkdwn`*${escapeMrkdwn(figureName('aiPagesUsage'))}*  \`${progressBar(usage.percentage_used)}\` of the monthly limit\n${formatCount(usage.requests_this_month)} of ${formatCount(usage.requests_limit)} ${escapeMrkdwn(figureWords('aiPagesRequests'))} this billing period · resets ${resetText(usage.reset_date)}`,
      ),
    );
  } else {
    blocks.push(
      sectionBlock(
        mrkdwn`*${escapeMrkdwn(figureName('aiPagesUsage'))}*: no figures for this billing period yet.`,
      ),
    );
  }
  if (!config.enabled) {
    blocks.push(
      sectionBlock(
        mrkdwn`AI crawlers currently get your regular pages. Turn AI Pages back on in the dashboard.`,
      ),
    );
  }
  const usageText = usage
    ? mrkdwn` ${escapeMrkdwn(figureName('aiPagesUsage'))} ${formatUsagePercent(usage.percentage_used)} of the monthly limit (${formatCount(usage.requests_this_month)} of ${formatCount(usage.requests_limit)} ${escapeMrkdwn(figureWords('aiPagesRequests'))}), resets ${resetText(usage.reset_date)}.`
    : mrkdwn``;
  return {
    text: fallbackText(
      mrkdwn`AI Pages for ${escapeMrkdwn(brand.name)}: ${config.enabled ? mrkdwn`enabled` : mrkdwn`disabled`} on ${escapeMrkdwn(config.domain)}.${usageText}`,
    ),
    blocks,
  };
}
