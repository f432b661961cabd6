/**
 * `aliases <brand>` lists; `set a, b, c` replaces; `add x` / `remove x` change one (or a
 * comma-separated few); `edit` opens the form. The API replaces the whole list (docs/api.md
 * §4.7), so add and remove read the current list first and send the result, deduplicated
 * case-insensitively; a change that would change nothing is explained without a write.
 */

import { escapeMrkdwn, joinMrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import { truncatePlain } from '../../../messages/truncate-mrkdwn.js';
import { UserError, UserErrorCode } from '../../../messages/user-error.js';
import { brandAndVerb } from '../../commands/brand-and-verb.js';
import type { CommandContext, Subcommand } from '../../commands/subcommand.js';
import { type Actor, auditedWrite, refusedWrite } from '../../kit/audited-write.js';
import { BRAND_WRITES } from '../../kit/brand-writes.js';
import { fetchBrandDetails } from '../../kit/fetch-brand-details.js';
import { ensureCanEditBrand } from '../../kit/permissions.js';
import { ALIAS_MAX, aliasDiff, aliasKey, dedupeAliases, splitAliases } from './alias-list.js';
import { aliasesChangedReply, aliasesReply } from './aliases-view.js';
import { openAliasesModal } from './edit-aliases-button.js';

const VERBS = new Set(['list', 'set', 'add', 'remove', 'rm', 'delete', 'edit']);
const quoted = (xs: readonly string[]) =>
  joinMrkdwn(
    xs.map((a) => mrkdwn`"${escapeMrkdwn(truncatePlain(a, 200))}"`),
    mrkdwn`, `,
  );

async function save(
  ctx: CommandContext,
  actor: Actor,
  brandId: string,
  aliases: string[],
  detail: Record<string, unknown>,
) {
  return auditedWrite(ctx.deps, actor, { brandId, action: BRAND_WRITES.setAliases, detail }, () =>
    ctx.deps.api.setAliases({ brandId, aliases }),
  );
}

/** The aliases typed after `set`, `add` or `remove`, split, deduplicated and checked. */
function typedAliases(ctx: CommandContext, verb: string, rest: readonly string[]): string[] {
  // As typed, quotes included, so a quoted name keeps its commas.
  const typed = ctx.args.raw && rest.length > 0 ? ctx.args.raw.slice(-rest.length) : rest;
  const items = dedupeAliases(splitAliases(typed.join(' ')));
  if (items.length === 0) {
    throw ctx.usageError(
      verb === 'set'
        ? mrkdwn`List the aliases after \`set\`, separated by commas. To remove them all, use \`edit\` and empty the list.`
        : mrkdwn`Name the alias to ${verb === 'add' ? mrkdwn`add` : mrkdwn`remove`}.`,
    );
  }
  const tooLong = items.find((a) => a.length > ALIAS_MAX);
  if (tooLong) {
    throw ctx.usageError(
      mrkdwn`An alias can have at most ${ALIAS_MAX} characters); "${escapeMrkdwn(truncatePlain(tooLong, 40))}" has ${tooLong.length}.`,
    );
  }
  return items;
}

type Brand = Awaited<ReturnType<CommandContext['resolveBrand']>>;

async function replaceAliases(
  ctx: CommandContext,
  actor: Actor,
  found: Brand,
  items: string[],
): Promise<void> {
  // The cached list carries the aliases; they are only for saying what changed.
  const before = found.aliases;
  const result = await save(ctx, actor, found.id, items, { op: 'set', aliases: items });
  ctx.deps.brandCache.invalidate();
  await ctx.respond(
    aliasesChangedReply(
      found.name,
      result.aliases,
      before ? aliasDiff(before, result.aliases) : { added: [], removed: [] },
    ),
  );
}

/**
 * `add` or `remove` against the current list, read first since the API replaces the whole
 * list; a change that would change nothing is refused (and recorded) without a write.
 */
async function changeAliases(
  ctx: CommandContext,
  actor: Actor,
  found: Brand,
  op: 'add' | 'remove',
  items: string[],
): Promise<void> {
  const current = (await fetchBrandDetails(ctx.deps, found, ['aliases'])).aliases ?? [];
  const have = new Set(current.map(aliasKey));
  const write = { brandId: found.id, action: BRAND_WRITES.setAliases, detail: { op, aliases: items } };
  let next: string[];
  if (op === 'add') {
    const present = items.filter((a) => have.has(aliasKey(a)));
    if (present.length === items.length) {
      throw await refusedWrite(
        ctx.deps,
        actor,
        write,
        new UserError(
          UserErrorCode.AliasExists,
          mrkdwn`${quoted(present)} ${present.length === 1 ? mrkdwn`is` : mrkdwn`are`} already ${present.length === 1 ? mrkdwn`an alias` : mrkdwn`aliases`} of *${escapeMrkdwn(found.name)}*; nothing changed.`,
        ),
      );
    }
    next = dedupeAliases([...current, ...items]);
  } else {
    const missing = items.filter((a) => !have.has(aliasKey(a)));
    if (missing.length > 0) {
      throw await refusedWrite(
        ctx.deps,
        actor,
        write,
        new UserError(
          UserErrorCode.AliasUnknown,
          mrkdwn`${quoted(missing)} ${missing.length === 1 ? mrkdwn`is not an alias` : mrkdwn`are not aliases`} of *${escapeMrkdwn(found.name)}*, so nothing was removed. Its aliases: ${current.length ? quoted(current) : mrkdwn`none`}.`,
        ),
      );
    }
    const drop = new Set(items.map(aliasKey));
    next = current.filter((a) => !drop.has(aliasKey(a)));
  }
  const result = await save(ctx, actor, found.id, next, write.detail);
  ctx.deps.brandCache.invalidate();
  await ctx.respond(aliasesChangedReply(found.name, result.aliases, aliasDiff(current, result.aliases)));
}

export const aliases: Subcommand = {
  name: 'aliases',
  aliases: ['alias'],
  group: 'Brands',
  usage: '/visibility aliases [brand] [set a, b, c | add <alias> | remove <alias> | edit]',
  summary:
    'List a brand’s aliases (other names folded into its visibility score), replace them, add or remove one, or edit them in a form.',
  examples: [
    '/visibility aliases "Acme Analytics"',
    '/visibility aliases "Acme Analytics" add Acme Insights',
    '/visibility aliases "Acme Analytics" remove AcmeAnalytics',
    '/visibility aliases "Acme Labs" set Acme ML, AcmeLabs, Acme Research',
    '/visibility aliases "Acme Analytics" edit',
  ],
  async run(ctx) {
    const { brandToken, verb, rest } = brandAndVerb(ctx.args.positional, VERBS);
    const actor = { userId: ctx.userId, channelId: ctx.channelId };

    if (verb === undefined || verb === 'list') {
      const found = await ctx.resolveBrand(brandToken);
      const details = await fetchBrandDetails(ctx.deps, found, ['aliases']);
      await ctx.respond(aliasesReply(found, details.aliases ?? [], `aliases ${found.id}`));
      return;
    }
    if (verb === 'edit') {
      await openAliasesModal(ctx, await ctx.resolveBrand(brandToken));
      return;
    }

    const items = typedAliases(ctx, verb, rest);
    const action = BRAND_WRITES.setAliases;
    await ctx.requireWriter(action);
    const found = await ctx.resolveBrand(brandToken);
    await ensureCanEditBrand(ctx.deps, actor, found, action);
    if (verb === 'set') await replaceAliases(ctx, actor, found, items);
    else await changeAliases(ctx, actor, found, verb === 'add' ? 'add' : 'remove', items);
  },
};
