/**
 * A brand for a command or an action: the one named by `token`, or else the channel's
 * default brand (`/visibility use`). The brand list comes from the short-lived cache.
 */

import type { Brand } from '../api/schemas/index.js';
import { mrkdwn } from '../messages/mrkdwn.js';
import { UserError } from '../messages/user-error.js';
import { channelDefaultBrandId } from './commands/channel-default-brand.js';
import { BrandMissingError, resolveBrand } from './commands/resolve-brand.js';
import type { SlackDeps } from './slack-deps.js';

export async function resolveBrandForChannel(
  deps: Pick<SlackDeps, 'brandCache' | 'store'>,
  channelId: string,
  token: string | undefined,
  usage?: string,
): Promise<Brand> {
  const brands = await deps.brandCache.list({ lane: 'interactive' });
  if (token !== undefined && token.trim() !== '') return resolveBrand(brands, token, usage);
  const defaultId = await channelDefaultBrandId(deps.store, channelId);
  if (defaultId === undefined) {
    throw new BrandMissingError(
      brands,
      mrkdwn`Which brand? Pick one, name it in the command, or give this channel a default brand with \`/visibility use "Brand name"\`.`,
      usage,
    );
  }
  const brand = brands.find((b) => b.id === defaultId);
  if (!brand) {
    throw new UserError(
      'brand_default_gone',
      mrkdwn`This channel's default brand is no longer visible to the API key. Name a brand, or set another default with \`/visibility use\`.`,
      usage,
    );
  }
  return brand;
}
