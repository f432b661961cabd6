/**
 * `/visibility aipages <brand>`: whether Hosted AI Pages is on, for which domain and
 * platform, with which features and crawlers (human names for the service's lowercase
 * identifiers), and the month's usage as a progress bar with the reset date. A brand
 * without AI Pages set up (config null, API.md §4.11) gets the steps to set it up.
 */

import type { AiPagesRecord } from '../../api/schemas/index.js';
import type { Reply } from '../reply.js';
import { slackDate } from '../user-facing-error.js';
import { compact, fieldsBlock, headerBlock, sectionBlock } from './basic-blocks.js';
import type { KnownBlock } from './block-kit-types.js';
import { fallbackText } from './fallback-text.js';
import { formatCount } from './format-number.js';
import { inlineText } from './link-or-text.js';
import { escapeMrkdwn } from './mrkdwn.js';
import { ownLookup } from './own-lookup.js';
import { progressBar } from './progress-bar.js';
import { truncatePlain } from './truncate-mrkdwn.js';

/** API.md §2: the known features, as "lowercase concatenated words". */
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
export const crawlerName = (id: string) => ownLookup(CRAWLERS, id.toLowerCase()) ?? id;

const list = (ids: readonly string[], name: (id: string) => string, max = 12) =>
  ids.length === 0
    ? 'none'
    : `${ids
        .slice(0, max)
        .map((id) => inlineText(name(id), 60))
        .join(', ')}${ids.length > max ? ` +${ids.length - max} more` : ''}`;

function resetText(iso: string): string {
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? slackDate(ms) : inlineText(iso, 40);
}

export function aiPagesReply(brand: { id: string; name: string }, record: AiPagesRecord): Reply {
  const name = escapeMrkdwn(truncatePlain(brand.name, 100));
  const { config, usage } = record;
  if (config === null) {
    const text = [
      `*Hosted AI Pages is not set up for ${name}.*`,
      'AI Pages serves AI-friendly versions of your pages to AI crawlers (structured data, key facts, FAQs, an AI summary). To set it up:',
      '1. In the Brand Visibility dashboard, open *AI Pages* for this brand.',
      '2. Enter the domain to optimise and pick your platform (Cloudflare, Vercel, Netlify, Next.js, CloudFront, WordPress, Node.js, NGINX or other), then follow its connection steps.',
      '3. Choose the features and the AI crawlers to serve.',
      `Then \`/visibility aipages "${name}"\` shows its status and usage here.`,
    ].join('\n');
    return {
      text: fallbackText(`Hosted AI Pages is not set up for ${brand.name}.`),
      blocks: [headerBlock(`AI Pages · ${brand.name}`), sectionBlock(text)],
    };
  }
  const blocks: KnownBlock[] = compact([
    headerBlock(`AI Pages · ${brand.name}`),
    fieldsBlock([
      { label: 'Status', value: config.enabled ? ':large_green_circle: Enabled' : ':red_circle: Disabled' },
      { label: 'Domain', value: inlineText(config.domain, 200) },
      {
        label: 'Platform',
        value: config.platform ? inlineText(platformName(config.platform), 60) : 'not set',
      },
    ]),
    sectionBlock(
      `*Features*: ${list(config.features, featureName)}\n*Crawlers served*: ${list(config.crawlers, crawlerName)}`,
    ),
  ]);
  if (usage) {
    blocks.push(
      sectionBlock(
        `*Usage this month*  \`${progressBar(usage.percentage_used)}\`\n${formatCount(usage.requests_this_month)} of ${formatCount(usage.requests_limit)} AI crawler requests · resets ${resetText(usage.reset_date)}`,
      ),
    );
  } else {
    blocks.push(sectionBlock('*Usage*: no figures for this billing period yet.'));
  }
  if (!config.enabled) {
    blocks.push(
      sectionBlock('AI crawlers currently get your regular pages. Turn AI Pages back on in the dashboard.'),
    );
  }
  const usageText = usage
    ? ` ${Math.round(usage.percentage_used)} % used (${usage.requests_this_month} of ${usage.requests_limit} requests), resets ${usage.reset_date}.`
    : '';
  return {
    text: fallbackText(
      `AI Pages for ${brand.name}: ${config.enabled ? 'enabled' : 'disabled'} on ${config.domain}.${usageText}`,
    ),
    blocks,
  };
}
