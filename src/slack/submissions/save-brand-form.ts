/**
 * What every brand form does once its values are valid: check the writer and the brand
 * (looked up again from private_metadata), make the audited write, then close the form and
 * confirm where it was opened. The service's refusals of the values go under `errorBlockId`.
 */
import type { Brand } from '../../api/schemas/index.js';
import type { Reply } from '../../messages/reply.js';
import { auditedWrite } from '../kit/audited-write.js';
import type { BrandWrite } from '../kit/brand-writes.js';
import { ensureCanEditBrand } from '../kit/permissions.js';
import { tellUser } from '../kit/tell-user.js';
import { brandForSubmission } from './brand-for-submission.js';
import { inlineServiceError } from './inline-service-error.js';
import type { SubmissionContext, SubmissionResult } from './submission-handler.js';

interface BrandFormWrite<T> {
  action: BrandWrite;
  /** The audit entry's detail. */
  detail: Record<string, unknown>;
  write: (brand: Brand) => Promise<T>;
  /** The change alters the brand list (markets, location): cached brands are dropped. */
  invalidatesBrands: boolean;
  /** Where the service's refusal of the values is shown. */
  errorBlockId: string;
  confirm: (brand: Brand, result: T) => Reply;
}

export async function saveBrandForm<T>(
  ctx: SubmissionContext,
  w: BrandFormWrite<T>,
): Promise<SubmissionResult> {
  await ctx.requireWriter(w.action);
  const { brand, meta } = await brandForSubmission(ctx);
  const actor = { userId: ctx.userId, channelId: meta.channelId };
  await ensureCanEditBrand(ctx.deps, actor, brand, w.action);
  try {
    const result = await auditedWrite(
      ctx.deps,
      actor,
      { brandId: brand.id, action: w.action, detail: w.detail },
      () => w.write(brand),
    );
    if (w.invalidatesBrands) ctx.deps.brandCache.invalidate();
    return {
      close: true,
      afterAck: () => tellUser(ctx.client, actor, w.confirm(brand, result), ctx.deps.logger),
    };
  } catch (err) {
    const inline = inlineServiceError(err, w.errorBlockId);
    if (inline) return inline;
    throw err;
  }
}
