/**
 * Which brand did the person mean? A UUID, the name in any case, one of its aliases, or an
 * unambiguous start of a name or alias. An exact name wins over an alias, and an alias over
 * a longer name it begins ("Acme" is the brand named "Acme", else the brand with the alias
 * "Acme", and only then a question between "Acme Analytics" and "Acme Labs"); two
 * candidates are a question back to the user with one button each, never a guess.
 */
import type { Brand } from '../../api/schemas/index.js';
import { closestMatches } from '../../closest-matches.js';
import { escapeMrkdwn, joinMrkdwn, type Mrkdwn, mrkdwn } from '../../messages/mrkdwn.js';
import { UserError, UserErrorCode } from '../../messages/user-error.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const foldBrandName = (s: string) => s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
const fold = foldBrandName;

/**
 * The token named several brands. Carries them so the command runner can offer one button
 * per candidate that re-runs the command for it.
 */
export class BrandAmbiguousError extends UserError {
  readonly token: string;
  readonly candidates: readonly Brand[];

  constructor(token: string, candidates: readonly Brand[], message: Mrkdwn, usage?: string) {
    super(UserErrorCode.BrandAmbiguous, message, usage);
    this.name = 'BrandAmbiguousError';
    this.token = token;
    this.candidates = candidates;
  }
}

/**
 * The command needs a brand and none was named (nor set as the channel's default): the
 * brands to offer in a picker come along.
 */
export class BrandMissingError extends UserError {
  readonly brands: readonly Brand[];

  constructor(brands: readonly Brand[], message: Mrkdwn, usage?: string) {
    super(UserErrorCode.BrandMissing, message, usage);
    this.name = 'BrandMissingError';
    this.brands = brands;
  }
}

function listNames(brands: readonly Brand[]): Mrkdwn {
  return joinMrkdwn(
    brands.map((b) => mrkdwn`*${escapeMrkdwn(b.name)}*`),
    mrkdwn`, `,
  );
}

const namesOf = (b: Brand): string[] => [b.name, ...(b.aliases ?? [])];

/** Whether `words` (folded) is a brand's name or alias, or the start of one. */
export function isKnownBrandPrefix(brands: readonly Brand[], words: string): boolean {
  const wanted = fold(words);
  if (wanted === '') return false;
  return brands.some((b) => namesOf(b).some((n) => fold(n).startsWith(wanted)));
}

export function resolveBrand(brands: readonly Brand[], token: string, usage?: string): Brand {
  const wanted = fold(token);
  if (wanted === '')
    throw new UserError(UserErrorCode.BrandMissing, mrkdwn`Name a brand, e.g. "Acme Analytics".`);

  if (UUID.test(wanted)) {
    const byId = brands.find((b) => b.id.toLowerCase() === wanted);
    if (byId) return byId;
    throw new UserError(
      UserErrorCode.BrandUnknown,
      mrkdwn`No brand with id \`${escapeMrkdwn(token)}\` is visible to this API key.`,
    );
  }

  const exact = brands.filter((b) => fold(b.name) === wanted);
  if (exact.length === 1) return exact[0]!;
  if (exact.length > 1) {
    throw new BrandAmbiguousError(
      token,
      exact,
      mrkdwn`Several brands are called "${escapeMrkdwn(token)}"; pick one, or use the id: ${joinMrkdwn(
        exact.map((b) => mrkdwn`\`${escapeMrkdwn(b.id)}\``),
        mrkdwn`, `,
      )}.`,
      usage,
    );
  }
  const byAlias = brands.filter((b) => (b.aliases ?? []).some((a) => fold(a) === wanted));
  if (byAlias.length === 1) return byAlias[0]!;
  const candidates =
    byAlias.length > 1 ? byAlias : brands.filter((b) => namesOf(b).some((n) => fold(n).startsWith(wanted)));
  if (candidates.length === 1) return candidates[0]!;
  if (candidates.length > 1) {
    throw new BrandAmbiguousError(
      token,
      candidates,
      mrkdwn`"${escapeMrkdwn(token)}" matches ${listNames(candidates)}. Which one?`,
      usage,
    );
  }

  // A near miss of an alias suggests the brand it belongs to.
  const ownerOf = new Map<string, string>();
  for (const b of brands) for (const n of namesOf(b)) if (!ownerOf.has(n)) ownerOf.set(n, b.name);
  const close = [...new Set(closestMatches(token, [...ownerOf.keys()]).map((n) => ownerOf.get(n) ?? n))];
  const hint =
    close.length > 0
      ? mrkdwn` Did you mean ${joinMrkdwn(
          close.map((n) => mrkdwn`*${escapeMrkdwn(n)}*`),
          mrkdwn` or `,
        )}?`
      : brands.length > 0
        ? mrkdwn` The API key sees: ${listNames(brands.slice(0, 10))}${brands.length > 10 ? mrkdwn`, …` : mrkdwn``}.`
        : mrkdwn` The API key sees no brands at all.`;
  throw new UserError(UserErrorCode.BrandUnknown, mrkdwn`No brand called "${escapeMrkdwn(token)}".${hint}`);
}
