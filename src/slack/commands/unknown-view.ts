/**
 * `citations "Acme Analytics" histroy`: the words before the first known view name are
 * taken as the brand, so a misspelt view used to be blamed on the brand ("No brand called
 * "Acme Analytics histroy""). When those words name no brand but start with one (the
 * quoted phrase, or the longest run of words that is a brand's name, alias or id), the
 * word after it was meant as a view: say so, with the nearest view name.
 */
import type { Brand } from '../../api/schemas/index.js';
import { closestMatches } from '../../closest-matches.js';
import { escapeMrkdwn, joinMrkdwn, mrkdwn } from '../../messages/mrkdwn.js';
import { UserError, UserErrorCode } from '../../messages/user-error.js';
import { foldBrandName, resolveBrand } from './resolve-brand.js';
import type { CommandContext } from './subcommand.js';

const QUOTES = /^["'“‘]/;

function namesBrand(brands: readonly Brand[], words: string): boolean {
  const wanted = foldBrandName(words);
  return brands.some(
    (b) =>
      b.id.toLowerCase() === wanted ||
      foldBrandName(b.name) === wanted ||
      (b.aliases ?? []).some((a) => foldBrandName(a) === wanted),
  );
}

/** Whether resolving `token` would end in "No brand called …". */
function namesNoBrand(brands: readonly Brand[], token: string): boolean {
  try {
    resolveBrand(brands, token);
    return false;
  } catch (err) {
    return err instanceof UserError && err.code === UserErrorCode.BrandUnknown;
  }
}

/**
 * The error to throw instead of the brand's, or undefined when the brand words should be
 * resolved as they are. `brandWords` are the leading positional arguments taken as the
 * brand; `rawBrandWords` the same as typed (quotes included), when known.
 */
export async function unknownViewError(
  ctx: Pick<CommandContext, 'deps'>,
  brandWords: readonly string[],
  rawBrandWords: readonly string[] | undefined,
  views: readonly string[],
  usage: string,
): Promise<UserError | undefined> {
  if (brandWords.length < 2) return undefined;
  const brands = await ctx.deps.brandCache.list();
  if (!namesNoBrand(brands, brandWords.join(' '))) return undefined;

  let brandEnd = 0;
  if (rawBrandWords?.[0] !== undefined && QUOTES.test(rawBrandWords[0])) brandEnd = 1;
  else {
    for (let n = brandWords.length - 1; n >= 1 && brandEnd === 0; n -= 1) {
      if (namesBrand(brands, brandWords.slice(0, n).join(' '))) brandEnd = n;
    }
  }
  if (brandEnd === 0) return undefined;

  const typed = brandWords[brandEnd]!;
  const shown = escapeMrkdwn(typed.slice(0, 60));
  const [closest] = closestMatches(typed, views, { max: 1 });
  const hint = closest
    ? mrkdwn` — did you mean ${escapeMrkdwn(closest)}?`
    : mrkdwn`. The views are ${joinMrkdwn(
        views.map((v) => escapeMrkdwn(v)),
        mrkdwn`, `,
      )}.`;
  return new UserError(UserErrorCode.UnknownView, mrkdwn`Unknown view "${shown}"${hint}`, usage);
}
