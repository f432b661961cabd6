/**
 * A brand for a command or an action: the one named by `token`, or else the channel's
 * default brand (`/visibility use`). The brand list comes from the short-lived cache.
 *
 * A miss is checked once against a fresh list before it is reported: the cache is this
 * process's own, so behind a load balancer a brand, alias or market another replica just
 * added (its cache was invalidated, not this one's) would otherwise be "No brand called …"
 * here until the cache expires. Only a miss pays the extra GET /get-brands.
 */

import type { Brand } from '../../api/schemas/index.js';
import { mrkdwn } from '../../messages/mrkdwn.js';
import { UserError, UserErrorCode } from '../../messages/user-error.js';
import type { SlackDeps } from '../kit/slack-deps.js';
import { channelDefaultBrandId } from './channel-default-brand.js';
import { BrandMissingError, resolveBrand } from './resolve-brand.js';

export async function resolveBrandForChannel(
  deps: Pick<SlackDeps, 'brandCache' | 'store'>,
  channelId: string,
  token: string | undefined,
  usage?: string,
): Promise<Brand> {
  let brands = await deps.brandCache.list();
  const fresh = () => deps.brandCache.refresh();
  if (token !== undefined && token.trim() !== '') {
    try {
      return resolveBrand(brands, token, usage);
    } catch (err) {
      if (!(err instanceof UserError && err.code === UserErrorCode.BrandUnknown)) throw err;
      return resolveBrand(await fresh(), token, usage);
    }
  }
  const defaultId = await channelDefaultBrandId(deps.store, channelId);
  if (defaultId === undefined) {
    throw new BrandMissingError(
      brands,
      mrkdwn`Which brand? Pick one, name it in the command, or give this channel a default brand with \`/visibility use "Brand name"\`.`,
      usage,
    );
  }
  let brand = brands.find((b) => b.id === defaultId);
  if (!brand) {
    brands = await fresh();
    brand = brands.find((b) => b.id === defaultId);
  }
  if (!brand) {
    throw new UserError(
      UserErrorCode.BrandDefaultGone,
      mrkdwn`This channel's default brand is no longer visible to the API key. Name a brand, or set another default with \`/visibility use\`.`,
      usage,
    );
  }
  return brand;
}
