/**
 * The brand a brand modal was opened for (from its private_metadata), looked up again at
 * submission: it may have disappeared or changed role since the form opened.
 */
import type { Brand } from '../../api/schemas/index.js';
import { mrkdwn } from '../../messages/mrkdwn.js';
import { UserError } from '../../messages/user-error.js';
import { resolveBrandForChannel } from '../resolve-brand-for-channel.js';
import { type BrandModalMetadata, parseBrandModalMetadata } from '../views/brand-modal-metadata.js';
import type { SubmissionContext } from './submission-handler.js';

export async function brandForSubmission(
  ctx: SubmissionContext,
): Promise<{ brand: Brand; meta: BrandModalMetadata }> {
  const meta = parseBrandModalMetadata(ctx.privateMetadata);
  if (!meta)
    throw new UserError(
      'stale_modal',
      mrkdwn`This form is from an older version of the bot; close it and open it again.`,
    );
  const brand = await resolveBrandForChannel(ctx.deps, meta.channelId ?? '', meta.brandId);
  return { brand, meta };
}
