/**
 * What a brand modal carries in `private_metadata` (≤ 3000 chars): the brand and the
 * channel it was opened from, so the submission can confirm in that channel. Ids only.
 */
export interface BrandModalMetadata {
  brandId: string;
  /** Where the command or button was; absent when opened from the App Home. */
  channelId?: string;
}

/** A brand form's metadata: no brand when the form asks which (a brand select, brand-form-modal.ts). */
type BrandFormMetadata = Omit<BrandModalMetadata, 'brandId'> & { brandId?: string };

export function encodeBrandModalMetadata(m: BrandFormMetadata): string {
  return JSON.stringify({
    ...(m.brandId ? { brandId: m.brandId } : {}),
    ...(m.channelId ? { channelId: m.channelId } : {}),
  });
}

/** The metadata of a form opened for a brand; undefined when it names none or is not ours. */
export function parseBrandModalMetadata(raw: string): BrandModalMetadata | undefined {
  const m = parseBrandFormMetadata(raw);
  return m?.brandId ? { ...m, brandId: m.brandId } : undefined;
}

/** The metadata of any brand form, one that asks which brand included. */
export function parseBrandFormMetadata(raw: string): BrandFormMetadata | undefined {
  try {
    const v = JSON.parse(raw) as unknown;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
    const { brandId, channelId } = v as Record<string, unknown>;
    if (brandId !== undefined && (typeof brandId !== 'string' || brandId === '')) return undefined;
    return {
      ...(typeof brandId === 'string' ? { brandId } : {}),
      ...(typeof channelId === 'string' && channelId !== '' ? { channelId } : {}),
    };
  } catch {
    return undefined;
  }
}
