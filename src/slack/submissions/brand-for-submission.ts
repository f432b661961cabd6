/**
 * The brand a brand modal was opened for (from its private_metadata), or the one chosen in
 * its brand select when it was opened without one, looked up again at submission: it may
 * have disappeared or changed role since the form opened.
 */
import type { Brand } from '../../api/schemas/index.js';
import { mrkdwn } from '../../messages/mrkdwn.js';
import { UserError, UserErrorCode } from '../../messages/user-error.js';
import { resolveBrandForChannel } from '../commands/resolve-brand-for-channel.js';
import { BRAND_INPUT_BLOCK_ID } from '../views/brand-form-modal.js';
import { type BrandModalMetadata, parseBrandFormMetadata } from '../views/brand-modal-metadata.js';
import { BRAND_SELECT_ACTION_ID } from '../views/brand-select.js';
import type { SubmissionContext } from './submission-handler.js';

const staleModal = () =>
  new UserError(
    UserErrorCode.StaleModal,
    mrkdwn`This form is from an older version of the bot; close it and open it again.`,
  );

/**
 * The form's brand select: the brand id chosen, `null` when the form has the select but
 * nothing was picked, undefined when the form has no brand select.
 */
function chosenBrandId(values: SubmissionContext['values']): string | null | undefined {
  const block = values[BRAND_INPUT_BLOCK_ID];
  if (block === undefined) return undefined;
  const option = (
    block[BRAND_SELECT_ACTION_ID] as { selected_option?: { value?: unknown } | null } | undefined
  )?.selected_option;
  return typeof option?.value === 'string' && option.value !== '' ? option.value : null;
}

/** "Pick a brand." when the form asks which brand and none was picked; shown under the select. */
export function brandChoiceProblem(ctx: SubmissionContext): Record<string, string> {
  return chosenBrandId(ctx.values) === null ? { [BRAND_INPUT_BLOCK_ID]: 'Pick a brand.' } : {};
}

export async function brandForSubmission(
  ctx: SubmissionContext,
): Promise<{ brand: Brand; meta: BrandModalMetadata }> {
  const meta = parseBrandFormMetadata(ctx.privateMetadata);
  if (!meta) throw staleModal();
  const brandId = meta.brandId ?? chosenBrandId(ctx.values);
  if (brandId === undefined) throw staleModal();
  if (brandId === null) throw new UserError(UserErrorCode.BrandMissing, mrkdwn`Pick a brand.`);
  const brand = await resolveBrandForChannel(ctx.deps, meta.channelId ?? '', brandId);
  return { brand, meta: { ...meta, brandId } };
}
