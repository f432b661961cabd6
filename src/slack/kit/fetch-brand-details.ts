/**
 * One brand with its markets and/or aliases. The cached brand list has neither (they come
 * only with `include`, docs/api.md §4.3), so views that show them ask for this one brand.
 */

import type { Brand } from '../../api/schemas/index.js';
import { escapeMrkdwn, mrkdwn } from '../../messages/mrkdwn.js';
import { UserError, UserErrorCode } from '../../messages/user-error.js';
import type { SlackDeps } from './slack-deps.js';

export async function fetchBrandDetails(
  deps: Pick<SlackDeps, 'api'>,
  brand: Pick<Brand, 'id' | 'name'>,
  include: ReadonlyArray<'markets' | 'aliases'>,
): Promise<Brand> {
  const { brands } = await deps.api.getBrands({ brandId: brand.id, include });
  const found = brands.find((b) => b.id === brand.id) ?? brands[0];
  if (!found) {
    throw new UserError(
      UserErrorCode.BrandGone,
      mrkdwn`*${escapeMrkdwn(brand.name)}* is no longer visible to the API key.`,
    );
  }
  return found;
}
