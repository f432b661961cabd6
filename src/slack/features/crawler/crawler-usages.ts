/** The usage line of each `crawler` view, shown with a usage error for that view. */
export const CRAWLER_USAGES = {
  overview: '/visibility crawler <brand> [24h|7d|30d|90d|YYYY-MM-DD..YYYY-MM-DD] [--compare]',
  live: '/visibility crawler <brand> live [range] [--view activity|pages|sessions] [--intent I] [--platform P] [--status 404] [--search S] [--limit 1-100]',
  pages:
    '/visibility crawler <brand> pages [range] [--lens pages|paths|bots] [--status all|converting|cited|crawled|healthy|cold] [--intent I] [--platform P] [--search S] [--limit 1-100]',
  access: '/visibility crawler <brand> access [range]',
  details: '/visibility crawler <brand> details page|path|bot <URL, path or name> [range]',
  ping: '/visibility crawler <brand> ping',
  submit: '/visibility crawler <brand> submit <url> [url …]',
  'submit-status': '/visibility crawler <brand> submit-status',
  'preview-fix': '/visibility crawler <brand> preview-fix <finding id>',
} as const;

export type CrawlerVerb = keyof typeof CRAWLER_USAGES;
export const crawlerVerbs = Object.keys(CRAWLER_USAGES) as CrawlerVerb[];
