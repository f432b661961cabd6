/**
 * `demo --tour`: help, then the first example of every registered subcommand (so the tour
 * grows as commands land), every citations view and crawler tab (typed per the parsers'
 * own lists, so a new view fails to compile until the tour shows it), a content ideas
 * refresh and its completion, a click or two, the App Home, a new day of data, the jobs'
 * alerts held by a mute, and `unmute` posting them.
 * `#` lines are narration: the tour prints them.
 */

import type { Subcommand } from '../../slack/commands/subcommand.js';
import type { CitationViewName } from '../../slack/features/citations/citation-usages.js';
import type { CrawlerVerb } from '../../slack/features/crawler/crawler-usages.js';
import { DEMO_BRANDS } from './demo-brands.js';

/**
 * Subcommands whose example undoes what the tour set up for `:jobs`: they run after it.
 * So the jobs run while the brand is muted, and `unmute` then shows the alerts the mute
 * held posted at once.
 */
const UNDOING = ['unmute', 'unsubscribe'];

/** One stop of the tour: what it says, then the lines it runs. */
interface TourStop {
  narration: string;
  lines: string[];
}

/**
 * Every citations view, in the order shown. Typed by the view names the parser takes
 * (citation-usages.ts): a new view is a compile error here until the tour shows it.
 */
function citationStops(brand: string): Record<CitationViewName, TourStop> {
  const c = (words: string) => `/visibility citations "${brand}" ${words}`;
  return {
    list: { narration: 'citations list: the pages AI models cite, filtered', lines: [c('list --limit 5')] },
    history: { narration: 'citations history: citations over time, with sparklines', lines: [c('history')] },
    queries: { narration: 'citations queries: the questions people ask, by intent', lines: [c('queries')] },
    sources: {
      narration: 'citations sources: one cited domain, page by page',
      lines: [c('sources techcrunch.com')],
    },
    feed: { narration: 'citations feed: what was cited or lost lately', lines: [c('feed --days-back 7')] },
    heatmap: { narration: 'citations heatmap: domains × brands', lines: [c('heatmap')] },
  };
}

/**
 * Every crawler tab, in the order shown (the key order: Preview fix needs the access
 * findings on screen). Typed by the verbs the parser takes (crawler-usages.ts).
 */
function crawlerStops(brand: string): Record<CrawlerVerb, TourStop> {
  const c = (words: string) => `/visibility crawler "${brand}" ${words}`;
  return {
    overview: { narration: 'crawler overview: AI crawler visits, compared', lines: [c('7d --compare')] },
    live: { narration: 'crawler live: the latest crawler visits', lines: [c('live --limit 5')] },
    pages: {
      narration: 'crawler pages: each page, and its drawer with the details (a button per row)',
      lines: [c('pages --limit 5'), ':click Page details'],
    },
    details: {
      narration:
        'crawler details: one page, path or AI crawler in full, typed (the drawer buttons show the same)',
      lines: [c('details bot OAI-SearchBot')],
    },
    access: { narration: 'crawler access: what keeps AI crawlers out', lines: [c('access')] },
    'preview-fix': {
      narration: 'Each access finding has a Preview fix button: the change to make, nothing applied',
      lines: [':click Preview fix'],
    },
    ping: { narration: 'crawler ping: is the site reachable for the service', lines: [c('ping')] },
    submit: {
      narration: 'crawler submit: ask AI search engines to visit pages of the brand’s site',
      // A page of the seed brand's own website (the simulator's profile of it).
      lines: [c('submit https://www.acmeanalytics.com/pricing')],
    },
    'submit-status': {
      narration: 'crawler submit-status: how those submissions are doing',
      lines: [c('submit-status')],
    },
  };
}

/** The ideas refresh runs in the background; `:wait` shows its message updated when it ends. */
function refreshStop(brand: string): TourStop {
  return {
    narration:
      'ideas refresh: new ideas are generated in the background; the message updates when they are ready',
    lines: [`/visibility ideas "${brand}" refresh`, ':wait'],
  };
}

const EXTRA_STOPS: Record<string, (brand: string) => TourStop[]> = {
  ideas: (brand) => [refreshStop(brand)],
  citations: (brand) => Object.values(citationStops(brand)),
  crawler: (brand) => Object.values(crawlerStops(brand)),
};

export function tourLines(subcommands: readonly Subcommand[]): string[] {
  const brand = DEMO_BRANDS[0]!.name;
  const lines = ['# Every /visibility subcommand starts with help:', '/visibility help'];
  const seen = new Set(['/visibility help']);
  const stop = (into: string[], s: TourStop) => {
    const fresh = s.lines.filter((l) => l.startsWith(':') || !seen.has(l));
    for (const l of fresh) seen.add(l);
    if (fresh.length > 0) into.push(`# ${s.narration}`, ...fresh);
  };
  // Undoing commands go last, so the jobs at the end still see the subscription.
  // In UNDOING's order, whatever the registry's: unmute before unsubscribe.
  const atTheEnd = new Map<string, string[]>(UNDOING.map((name) => [name, []]));
  for (const s of subcommands) {
    const example = s.examples[0];
    const into = atTheEnd.get(s.name) ?? lines;
    if (example) stop(into, { narration: `${s.name}: ${s.summary}`, lines: [example] });
    if (s.name === 'brands') {
      lines.push(
        '# Buttons are numbered; :click presses one (by number or label).',
        ':click Details',
        ':click Citations',
      );
    }
    for (const extra of EXTRA_STOPS[s.name]?.(brand) ?? []) stop(into, extra);
  }
  lines.push(
    '# The App Home tab:',
    ':home',
    '# A new day of data in the simulator:',
    ':advance',
    `# Stage an alert: ${brand} has used 92 % of its AI Pages requests.`,
    `:usage "${brand}" 92`,
    '# The scheduled jobs, run once now: the mute above holds their alerts, the digest still comes.',
    ':jobs',
    ...[...atTheEnd.values()].flat(),
  );
  return lines;
}
