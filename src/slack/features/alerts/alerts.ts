/**
 * `/visibility alerts <brand> [open|resolved|all] [--days N]`: the brand's alerts of the
 * last N days (30 unless asked) with their state, owner, time to acknowledge and time to
 * resolve, each linked to its message; paged.
 */
import { escapeMrkdwn, type Mrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import { UserError, UserErrorCode } from '../../../messages/user-error.js';
import type { AlertStateFilter } from '../../../store/alert-states-repo.js';
import { flagReader } from '../../commands/args/flag-reader.js';
import { brandAndVerb } from '../../commands/brand-and-verb.js';
import type { Subcommand } from '../../commands/subcommand.js';
import { alertsPage, DEFAULT_ALERT_DAYS } from './alerts-page.js';
import { ALERT_FILTERS } from './alerts-view.js';

const USAGE = '/visibility alerts <brand> [open|resolved|all] [--days 1-365]';

export const alerts: Subcommand = {
  name: 'alerts',
  aliases: ['alert-history'],
  group: 'Alerts',
  usage: USAGE,
  summary:
    'The alerts a brand had (all, or only `open` or `resolved`), each with who owns it, how long it took to be acknowledged and resolved, and a link to its message; the last 30 days unless `--days` says otherwise.',
  examples: [
    '/visibility alerts "Acme Analytics"',
    '/visibility alerts "Acme Analytics" open',
    '/visibility alerts "Acme Analytics" resolved --days 90',
  ],
  async run(ctx) {
    const { brandToken, verb, rest } = brandAndVerb(ctx.args.positional, new Set<string>(ALERT_FILTERS));
    const fail = (message: Mrkdwn) => new UserError(UserErrorCode.BadArguments, message, USAGE);
    if (rest.length > 0)
      throw fail(
        mrkdwn`Unexpected “${escapeMrkdwn(rest.join(' ').slice(0, 60))}”: say \`open\`, \`resolved\` or \`all\`.`,
      );
    const flags = flagReader(ctx.args.flags, fail);
    const days = flags.int(1, 365, 'days') ?? DEFAULT_ALERT_DAYS;
    // Not in the usage: a shared later page names where it starts.
    const offset = flags.int(0, 1_000_000, 'offset') ?? 0;
    flags.rejectUnknown();
    const brand = await ctx.resolveBrand(brandToken);
    const filter = (verb as AlertStateFilter | undefined) ?? 'all';
    await ctx.respond(await alertsPage(ctx.deps, ctx.client, brand, { filter, days, offset }));
  },
};
