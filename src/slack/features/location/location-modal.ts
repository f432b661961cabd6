/** The "Set primary location" modal: country picker, optional region, city and provider code. */
import type { Brand } from '../../../api/schemas/index.js';
import type { ModalView } from '../../../messages/block-kit-types.js';
import { escapeMrkdwn, type Mrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import { brandFormModal, INPUT_ACTION_ID } from '../../views/brand-form-modal.js';
import type { BrandModalMetadata } from '../../views/brand-modal-metadata.js';
import { brandName } from '../../views/brand-name.js';
import { countrySelect } from '../../views/country-select.js';

export const LOCATION_CALLBACK_ID = 'vis:location:set';
export const LOCATION_BLOCKS = {
  country: 'country',
  region: 'location_region',
  city: 'location_city',
  providerCode: 'location_provider_code',
} as const;
/** Region and city longer than this are refused under the input. */
export const PLACE_MAX = 100;

type LocatedBrand = Pick<Brand, 'id' | 'name' | 'location' | 'location_region' | 'location_city'>;

function textInput(
  blockId: string,
  label: Mrkdwn,
  hint: Mrkdwn,
  initial: string | null | undefined,
  maxLength?: number,
) {
  return {
    type: 'input' as const,
    block_id: blockId,
    optional: true,
    label: { type: 'plain_text' as const, text: label },
    hint: { type: 'plain_text' as const, text: hint },
    element: {
      type: 'plain_text_input' as const,
      action_id: INPUT_ACTION_ID,
      ...(initial ? { initial_value: initial.slice(0, maxLength ?? 3000) } : {}),
      ...(maxLength ? { max_length: maxLength } : {}),
    },
  };
}

export function locationModal(brand: LocatedBrand, where: Omit<BrandModalMetadata, 'brandId'>): ModalView {
  const now = brand.location
    ? mrkdwn`Its primary market is now *${escapeMrkdwn(brand.location)}*.`
    : mrkdwn`It has no primary market (global mode), which can skew its competitor set toward US results.`;
  return brandFormModal({
    callbackId: LOCATION_CALLBACK_ID,
    brand,
    where,
    title: mrkdwn`Primary location`,
    submit: mrkdwn`Save`,
    intro: mrkdwn`Set the primary location of *${brandName(brand.name)}*. ${now} Changing it moves the primary market to the new country; it does not use an extra market.`,
    inputs: [
      {
        type: 'input',
        block_id: LOCATION_BLOCKS.country,
        label: { type: 'plain_text', text: mrkdwn`Country` },
        element: countrySelect(INPUT_ACTION_ID, brand.location),
      },
      textInput(
        LOCATION_BLOCKS.region,
        mrkdwn`Region or state`,
        mrkdwn`Optional, e.g. Bavaria.`,
        brand.location_region,
        PLACE_MAX,
      ),
      textInput(
        LOCATION_BLOCKS.city,
        mrkdwn`City`,
        mrkdwn`Optional, e.g. Munich.`,
        brand.location_city,
        PLACE_MAX,
      ),
      textInput(
        LOCATION_BLOCKS.providerCode,
        mrkdwn`Search-data provider location code`,
        mrkdwn`Optional: the numeric location code of your search-data provider, for targeting below country level.`,
        undefined,
      ),
    ],
  });
}
