/**
 * What a brand modal carries in `private_metadata` (≤ 3000 chars): the brand and the
 * channel it was opened from, so the submission can confirm in that channel. Ids only.
 */
export interface BrandModalMetadata {
  brandId: string;
  /** Where the command or button was; absent when opened from the App Home. */
  channelId?: string;
}

export function encodeBrandModalMetadata(m: BrandModalMetadata): string {
  return JSON.stringify(
    m.channelId ? { brandId: m.brandId, channelId: m.channelId } : { brandId: m.brandId },
  );
}

export function parseBrandModalMetadata(raw: string): BrandModalMetadata | undefined {
  try {
    const v = JSON.parse(raw) as Record<string, unknown>;
    if (typeof v['brandId'] !== 'string' || v['brandId'] === '') return undefined;
    return typeof v['channelId'] === 'string' && v['channelId'] !== ''
      ? { brandId: v['brandId'], channelId: v['channelId'] }
      : { brandId: v['brandId'] };
  } catch {
    return undefined;
  }
}
