/**
 * `/visibility citations <brand> [view] …`: the URLs AI models cite for a brand, in the
 * six views of GET /get-citations. The brand is whatever comes before the view name
 * (quoted or not; none = the channel's default brand); every argument is checked before
 * the first request.
 */

import { brandAndVerb } from '../../commands/brand-and-verb.js';
import type { Subcommand } from '../../commands/subcommand.js';
import { unknownViewError } from '../../commands/unknown-view.js';
import { type CitationViewName, citationViewNames } from './citation-usages.js';
import { type CitationViewArgs, citationViewArgs } from './citation-view-args.js';
import { runCitationsFeed } from './citations-feed.js';
import { runCitationsHeatmap } from './citations-heatmap.js';
import { runCitationsHistory } from './citations-history.js';
import { runCitationsList } from './citations-list.js';
import { runCitationsQueries } from './citations-queries.js';
import { runCitationsSources } from './citations-sources.js';

const VIEWS: Record<CitationViewName, (a: CitationViewArgs) => Promise<void>> = {
  list: runCitationsList,
  history: runCitationsHistory,
  queries: runCitationsQueries,
  sources: runCitationsSources,
  feed: runCitationsFeed,
  heatmap: runCitationsHeatmap,
};

export const citations: Subcommand = {
  name: 'citations',
  aliases: ['citation', 'cites'],
  group: 'Citations',
  usage:
    '/visibility citations <brand> [list|history|queries|sources <domain>|feed|heatmap] [--domain D] [--prompt P] [--tags a,b] [--limit N] [--days N] [--days-back N]',
  summary:
    'Pages AI models cite for a brand: the list (filter by domain, prompt or tags), history with sparklines, queries by intent, one source domain, the change feed, and a domains × brands heatmap.',
  examples: [
    '/visibility citations "Acme Analytics"',
    '/visibility citations "Acme Analytics" list --domain g2.com --limit 10',
    '/visibility citations "Acme Analytics" history --days 90',
    '/visibility citations "Acme Analytics" queries',
    '/visibility citations "Acme Analytics" sources techcrunch.com',
    '/visibility citations "Acme Analytics" feed --days-back 7',
    '/visibility citations "Northwind Outfitters" heatmap',
  ],
  booleanFlags: ['most-cited'],
  async run(ctx) {
    const { brandToken, verb, rest } = brandAndVerb(ctx.args.positional, new Set(citationViewNames));
    if (brandToken !== undefined) {
      const brandWords = ctx.args.positional.slice(
        0,
        ctx.args.positional.length - rest.length - (verb ? 1 : 0),
      );
      const raw = ctx.args.raw?.slice(0, brandWords.length);
      const typo = await unknownViewError(ctx, brandWords, raw, citationViewNames, citations.usage);
      if (typo) throw typo;
    }
    const view = (verb ?? 'list') as CitationViewName;
    await VIEWS[view](citationViewArgs(ctx, view, brandToken, rest));
  },
};
