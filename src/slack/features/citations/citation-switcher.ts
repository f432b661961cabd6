/**
 * The "View" menu on every citations reply: the six views for the same brand, the one on
 * screen preselected. A period carries over where the other view has one (history's
 * `--days` is 7–365, the feed's `--days-back` 1–30); the sources view keeps its domain, and
 * from the other views opens on the brand's most cited domain (`--most-cited`), since it
 * needs one.
 */
import { commandText } from '../../commands/args/command-text.js';
import { type ViewChoice, viewSwitcher } from '../../views/view-switcher.js';
import { type CitationViewName, citationViewNames } from './citation-usages.js';

const LABELS: Record<CitationViewName, string> = {
  list: 'Cited pages',
  history: 'History',
  queries: 'Queries',
  sources: 'Sources',
  feed: 'Change feed',
  heatmap: 'Heatmap',
};

interface CitationSwitcherInput {
  brandId: string;
  current: CitationViewName;
  /** The period on screen in days (history's `--days`, the feed's `--days-back`). */
  days?: number | undefined;
  /** The domain on screen (sources). */
  domain?: string | undefined;
  /** More domains to offer as "Sources · <domain>" (from the sources view's own lookup). */
  otherDomains?: readonly string[];
}

const within = (n: number | undefined, min: number, max: number) =>
  n !== undefined && n >= min && n <= max ? n : undefined;

function commandFor(view: CitationViewName, input: CitationSwitcherInput): string {
  const { brandId, days, domain } = input;
  switch (view) {
    case 'history':
      return commandText('citations', brandId, ['history'], { days: within(days, 7, 365) });
    case 'feed':
      return commandText('citations', brandId, ['feed'], { 'days-back': within(days, 1, 30) });
    case 'sources':
      return domain
        ? commandText('citations', brandId, ['sources', domain])
        : commandText('citations', brandId, ['sources'], { 'most-cited': true });
    default:
      return commandText('citations', brandId, [view]);
  }
}

export function citationViewChoices(input: CitationSwitcherInput): ViewChoice[] {
  const choices: ViewChoice[] = citationViewNames.map((view) => ({
    label: view === 'sources' && input.domain ? `Sources · ${input.domain}` : LABELS[view],
    command: commandFor(view, input),
    current: view === input.current,
  }));
  const others = (input.otherDomains ?? []).filter((d) => d !== input.domain);
  const at = citationViewNames.indexOf('sources') + 1;
  choices.splice(
    at,
    0,
    ...others.map((domain) => ({
      label: `Sources · ${domain}`,
      command: commandText('citations', input.brandId, ['sources', domain]),
    })),
  );
  return choices;
}

/** The select for a citations reply's actions block. */
export const citationSwitcher = (input: CitationSwitcherInput) => viewSwitcher(citationViewChoices(input));
