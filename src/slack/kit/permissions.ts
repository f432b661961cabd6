/**
 * Brand-level permission the bot can know before asking: the API key's role on each brand
 * comes with the brand list, and a `viewer` may read but not change markets, location or
 * aliases (docs/api.md §5). Refusing here saves a request the service would answer 403, which
 * the user would otherwise read as "the API key was rejected".
 */

import type { Brand } from '../../api/schemas/index.js';
import { escapeMrkdwn, mrkdwn } from '../../messages/mrkdwn.js';
import { UserError, UserErrorCode } from '../../messages/user-error.js';
import { type Actor, refusedWrite } from './audited-write.js';
import type { SlackDeps } from './slack-deps.js';

export function canEditBrand(brand: Pick<Brand, 'role'>): boolean {
  return brand.role === 'owner' || brand.role === 'editor';
}

/** Throws (and audits) when the key's role on `brand` cannot make `action`. */
export async function ensureCanEditBrand(
  deps: Pick<SlackDeps, 'auditLog' | 'clock'>,
  actor: Actor,
  brand: Pick<Brand, 'id' | 'name' | 'role'>,
  action: string,
): Promise<void> {
  if (canEditBrand(brand)) return;
  throw await refusedWrite(
    deps,
    actor,
    { brandId: brand.id, action },
    new UserError(
      UserErrorCode.ViewerRole,
      mrkdwn`The bot cannot ${escapeMrkdwn(action)} for *${escapeMrkdwn(brand.name)}*: the API key only has the *viewer* role on it, so the service would refuse. Ask an owner or editor of the brand to make the change, or to give the key's user editor access.`,
    ),
  );
}
