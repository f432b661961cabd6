/** The usage line of each `citations` view, shown with a usage error for that view. */
export const CITATION_USAGES = {
  list: '/visibility citations <brand> [list] [--domain D] [--prompt P] [--tags id1,id2] [--limit 1-500] [--offset N]',
  history: '/visibility citations <brand> history [--days 7-365]',
  queries: '/visibility citations <brand> queries',
  sources: '/visibility citations <brand> sources <domain>|--most-cited [--limit 1-500]',
  feed: '/visibility citations <brand> feed [--days-back 1-30]',
  heatmap: '/visibility citations <brand> heatmap',
} as const;

export type CitationViewName = keyof typeof CITATION_USAGES;
export const citationViewNames = Object.keys(CITATION_USAGES) as CitationViewName[];
