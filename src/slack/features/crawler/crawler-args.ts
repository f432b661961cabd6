/**
 * `crawler Acme Analytics live 7d --limit 10`: the brand is the words before the first
 * verb or range (none = the channel's default brand); then at most one verb and one range
 * in any order; `submit` and `preview-fix` take the words after them as their arguments.
 * A word that looks like a range but is not one is a usage error, never part of the brand.
 */

import type { DateRangeParams } from '../../../api/visibility-api.js';
import { escapeMrkdwn, type Mrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import { ownLookup } from '../../../messages/own-lookup.js';
import { UserError, UserErrorCode } from '../../../messages/user-error.js';
import { isRangeToken, looksLikeRange, parseRange } from './crawler-range.js';
import { CRAWLER_USAGES, type CrawlerVerb, crawlerVerbs } from './crawler-usages.js';

export interface CrawlerArgs {
  brandToken: string | undefined;
  /** The words `brandToken` was made of, to tell a misspelt view from a brand. */
  brandWords: string[];
  verb: CrawlerVerb;
  range: DateRangeParams | undefined;
  /** `submit`: URLs; `preview-fix`: the finding id; `details`: the kind and the page, path or bot. */
  operands: string[];
}

const ALIASES: Record<string, CrawlerVerb> = {
  overview: 'overview',
  live: 'live',
  pages: 'pages',
  access: 'access',
  details: 'details',
  ping: 'ping',
  'verification-ping': 'ping',
  submit: 'submit',
  'submit-status': 'submit-status',
  'preview-fix': 'preview-fix',
  preview: 'preview-fix',
};
const TAKES_OPERANDS: ReadonlySet<CrawlerVerb> = new Set(['submit', 'preview-fix', 'details']);

const verbOf = (token: string): CrawlerVerb | undefined => ownLookup(ALIASES, token.toLowerCase());

export function parseCrawlerArgs(positional: readonly string[]): CrawlerArgs {
  // The first word may be a brand such as "3M": only a valid range counts there.
  const at = positional.findIndex(
    (t, i) => verbOf(t) !== undefined || (i === 0 ? isRangeToken(t) : looksLikeRange(t)),
  );
  const brandWords = at === -1 ? positional : positional.slice(0, at);
  const rest = at === -1 ? [] : positional.slice(at);
  let verb: CrawlerVerb | undefined;
  let range: DateRangeParams | undefined;
  const operands: string[] = [];
  const fail = (message: Mrkdwn) =>
    new UserError(UserErrorCode.BadArguments, message, CRAWLER_USAGES[verb ?? 'overview']);
  for (const token of rest) {
    if (verb !== undefined && TAKES_OPERANDS.has(verb)) {
      operands.push(token);
      continue;
    }
    const asVerb = verbOf(token);
    if (asVerb !== undefined && verb === undefined) {
      verb = asVerb;
      continue;
    }
    if (range === undefined && looksLikeRange(token)) {
      const parsed = parseRange(token);
      if (!parsed.ok) throw fail(escapeMrkdwn(parsed.message));
      range = parsed.range;
      continue;
    }
    throw fail(
      mrkdwn`Unexpected “${escapeMrkdwn(token.slice(0, 60))}”. Valid words here: ${escapeMrkdwn(crawlerVerbs.join(', '))} and a range.`,
    );
  }
  return {
    brandToken: brandWords.length > 0 ? brandWords.join(' ') : undefined,
    brandWords: [...brandWords],
    verb: verb ?? 'overview',
    range,
    operands,
  };
}
