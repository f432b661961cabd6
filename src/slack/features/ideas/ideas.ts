/**
 * `/visibility ideas <brand> [active|dismissed|implemented|all] [--limit N]` lists content
 * ideas ranked by opportunity score, paged with Previous/Next; `ideas <brand> refresh`
 * starts a new generation and updates its message when the run ends.
 */

import { escapeMrkdwn, type Mrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import { UserError, UserErrorCode } from '../../../messages/user-error.js';
import { flagReader } from '../../commands/args/flag-reader.js';
import { brandAndVerb } from '../../commands/brand-and-verb.js';
import type { Subcommand } from '../../commands/subcommand.js';
import { DEFAULT_IDEAS_PAGE, ideasPage } from './ideas-page.js';
import { runIdeasRefresh } from './ideas-refresh.js';
import type { IdeasStatusFilter } from './ideas-view.js';
import { DEFAULT_REFRESH_TIMING, type RefreshTiming } from './refresh-timing.js';

const STATUSES: readonly IdeasStatusFilter[] = ['active', 'dismissed', 'implemented', 'all'];
const VERBS = new Set<string>([...STATUSES, 'refresh']);
const USAGE =
  '/visibility ideas <brand> [active|dismissed|implemented|all] [--limit 1-200] | ideas <brand> refresh';

interface IdeasOptions {
  refreshTiming?: Partial<RefreshTiming>;
}

export function createIdeasSubcommand(options: IdeasOptions = {}): Subcommand {
  const timing: RefreshTiming = { ...DEFAULT_REFRESH_TIMING, ...options.refreshTiming };
  return {
    name: 'ideas',
    aliases: ['idea', 'content-ideas'],
    group: 'Content ideas',
    usage: USAGE,
    summary:
      'Content ideas ranked by opportunity score (active unless you ask for dismissed, implemented or all), with Previous/Next; `refresh` generates new ones and updates the message when they are ready.',
    examples: [
      '/visibility ideas "Acme Analytics"',
      '/visibility ideas "Acme Analytics" all --limit 20',
      '/visibility ideas "Globex Corporation" implemented',
      '/visibility ideas "Acme Analytics" refresh',
    ],
    async run(ctx) {
      const { brandToken, verb, rest } = brandAndVerb(ctx.args.positional, VERBS);
      const fail = (message: Mrkdwn) => new UserError(UserErrorCode.BadArguments, message, USAGE);
      if (rest.length > 0) {
        throw fail(
          mrkdwn`Unexpected “${escapeMrkdwn(rest.join(' ').slice(0, 60))}” after \`${escapeMrkdwn(verb ?? '')}\`.`,
        );
      }
      const flags = flagReader(ctx.args.flags, fail);
      if (verb === 'refresh') {
        flags.rejectUnknown();
        await runIdeasRefresh(ctx, brandToken, timing);
        return;
      }
      const status: IdeasStatusFilter = flags.bool('all')
        ? 'all'
        : ((verb as IdeasStatusFilter | undefined) ?? 'active');
      const limit = flags.int(1, 200, 'limit');
      // Not in the usage: a shared later page (ideas-page.ts) names where it starts.
      const offset = flags.int(0, 1_000_000_000, 'offset');
      flags.rejectUnknown();
      const brand = await ctx.resolveBrand(brandToken);
      const reply = await ideasPage(ctx.deps, brand, {
        status,
        offset: offset ?? 0,
        limit: limit ?? DEFAULT_IDEAS_PAGE,
      });
      await ctx.respond(reply);
    },
  };
}

export const ideas = createIdeasSubcommand();
