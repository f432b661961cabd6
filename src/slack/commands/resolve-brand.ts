/**
 * Which brand did the person mean? A UUID, the name in any case, or an unambiguous start
 * of a name. An exact name wins over a longer name it begins ("Acme" is the brand "Acme",
 * not "Acme Analytics"); otherwise two candidates are a question back to the user, never
 * a guess.
 */
import type { Brand } from '../../api/schemas/index.js';
import { escapeMrkdwn, joinMrkdwn, type Mrkdwn, mrkdwn } from '../../messages/mrkdwn.js';
import { UserError } from '../../messages/user-error.js';
import { closestMatches } from '../closest-matches.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const fold = (s: string) => s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();

function listNames(brands: readonly Brand[]): Mrkdwn {
  return joinMrkdwn(
    brands.map((b) => mrkdwn`*${escapeMrkdwn(b.name)}*`),
    mrkdwn`, `,
  );
}

export function resolveBrand(brands: readonly Brand[], token: string): Brand {
  const wanted = fold(token);
  if (wanted === '') throw new UserError('brand_missing', mrkdwn`Name a brand, e.g. "Acme Analytics".`);

  if (UUID.test(wanted)) {
    const byId = brands.find((b) => b.id.toLowerCase() === wanted);
    if (byId) return byId;
    throw new UserError(
      'brand_unknown',
      mrkdwn`No brand with id \`${escapeMrkdwn(token)}\` is visible to this API key.`,
    );
  }

  const exact = brands.filter((b) => fold(b.name) === wanted);
  if (exact.length === 1) return exact[0]!;
  const candidates = exact.length > 1 ? exact : brands.filter((b) => fold(b.name).startsWith(wanted));
  if (candidates.length === 1) return candidates[0]!;
  if (candidates.length > 1) {
    const sameName = exact.length > 1;
    throw new UserError(
      'brand_ambiguous',
      sameName
        ? mrkdwn`Several brands are called "${escapeMrkdwn(token)}"; use the id: ${joinMrkdwn(
            exact.map((b) => mrkdwn`\`${escapeMrkdwn(b.id)}\``),
            mrkdwn`, `,
          )}.`
        : mrkdwn`"${escapeMrkdwn(token)}" matches ${listNames(candidates)}. Which one? Quote the full name.`,
    );
  }

  const close = closestMatches(
    token,
    brands.map((b) => b.name),
  );
  const hint =
    close.length > 0
      ? mrkdwn` Did you mean ${joinMrkdwn(
          close.map((n) => mrkdwn`*${escapeMrkdwn(n)}*`),
          mrkdwn` or `,
        )}?`
      : brands.length > 0
        ? mrkdwn` The API key sees: ${listNames(brands.slice(0, 10))}${brands.length > 10 ? mrkdwn`, …` : mrkdwn``}.`
        : mrkdwn` The API key sees no brands at all.`;
  throw new UserError('brand_unknown', mrkdwn`No brand called "${escapeMrkdwn(token)}".${hint}`);
}
