/**
 * The AI crawlers the simulated service recognises. `intent` is the filter vocabulary
 * (interaction, search, training); `botType` feeds the overview's bot_type_summary
 * (training, search, interaction, agent, other). `share` is the crawler's usual part of
 * a site's AI crawler traffic.
 */
export type CrawlerIntent = 'interaction' | 'search' | 'training';
export type BotType = 'training' | 'search' | 'interaction' | 'agent' | 'other';

export interface CrawlerInfo {
  readonly id: string;
  readonly name: string;
  readonly platform: string;
  readonly intent: CrawlerIntent;
  readonly botType: BotType;
  readonly share: number;
  readonly userAgent: string;
}

export const CRAWLERS: readonly CrawlerInfo[] = [
  {
    id: 'gptbot',
    name: 'GPTBot',
    platform: 'openai',
    intent: 'training',
    botType: 'training',
    share: 0.18,
    userAgent:
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
  },
  {
    id: 'oai-searchbot',
    name: 'OAI-SearchBot',
    platform: 'openai',
    intent: 'search',
    botType: 'search',
    share: 0.12,
    userAgent:
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot',
  },
  {
    id: 'chatgpt-user',
    name: 'ChatGPT-User',
    platform: 'openai',
    intent: 'interaction',
    botType: 'interaction',
    share: 0.1,
    userAgent:
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot',
  },
  {
    id: 'chatgpt-agent',
    name: 'ChatGPT Agent',
    platform: 'openai',
    intent: 'interaction',
    botType: 'agent',
    share: 0.02,
    userAgent:
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36 ChatGPT-Agent',
  },
  {
    id: 'claudebot',
    name: 'ClaudeBot',
    platform: 'anthropic',
    intent: 'training',
    botType: 'training',
    share: 0.12,
    userAgent:
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
  },
  {
    id: 'claude-user',
    name: 'Claude-User',
    platform: 'anthropic',
    intent: 'interaction',
    botType: 'interaction',
    share: 0.03,
    userAgent:
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)',
  },
  {
    id: 'perplexitybot',
    name: 'PerplexityBot',
    platform: 'perplexity',
    intent: 'search',
    botType: 'search',
    share: 0.09,
    userAgent:
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)',
  },
  {
    id: 'perplexity-user',
    name: 'Perplexity-User',
    platform: 'perplexity',
    intent: 'interaction',
    botType: 'interaction',
    share: 0.04,
    userAgent:
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)',
  },
  {
    id: 'google-extended',
    name: 'Google-Extended',
    platform: 'google',
    intent: 'training',
    botType: 'training',
    share: 0.08,
    userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html) Google-Extended',
  },
  {
    id: 'bytespider',
    name: 'Bytespider',
    platform: 'bytedance',
    intent: 'training',
    botType: 'training',
    share: 0.07,
    userAgent:
      'Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)',
  },
  {
    id: 'applebot-extended',
    name: 'Applebot-Extended',
    platform: 'apple',
    intent: 'training',
    botType: 'training',
    share: 0.04,
    userAgent:
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)',
  },
  {
    id: 'ccbot',
    name: 'CCBot',
    platform: 'commoncrawl',
    intent: 'training',
    botType: 'training',
    share: 0.05,
    userAgent: 'CCBot/2.0 (https://commoncrawl.org/faq/)',
  },
  {
    id: 'amazonbot',
    name: 'Amazonbot',
    platform: 'amazon',
    intent: 'search',
    botType: 'other',
    share: 0.04,
    userAgent:
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot)',
  },
  {
    id: 'meta-externalagent',
    name: 'Meta-ExternalAgent',
    platform: 'meta',
    intent: 'training',
    botType: 'training',
    share: 0.02,
    userAgent: 'meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)',
  },
];

const COMPANIES: Readonly<Record<string, string>> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  perplexity: 'Perplexity',
  google: 'Google',
  bytedance: 'ByteDance',
  apple: 'Apple',
  commoncrawl: 'Common Crawl',
  amazon: 'Amazon',
  meta: 'Meta',
};

/** The company behind a crawler, as the service's prose names it ("OpenAI", not `openai`). */
export const companyOf = (c: CrawlerInfo): string => COMPANIES[c.platform] ?? c.platform;

/** A crawler by id or name, case-insensitively. */
export function findCrawler(idOrName: string): CrawlerInfo | undefined {
  const key = idOrName.trim().toLowerCase();
  return CRAWLERS.find((c) => c.id === key || c.name.toLowerCase() === key);
}

export const CRAWLER_PLATFORMS = [...new Set(CRAWLERS.map((c) => c.platform))];
