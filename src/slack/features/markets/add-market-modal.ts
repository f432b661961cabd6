/**
 * The "Add market" modal: a country picker and an optional display name; opened without a
 * brand, it first asks which one (a type-ahead brand select).
 */
import type { Brand } from '../../../api/schemas/index.js';
import type { ModalView } from '../../../messages/block-kit-types.js';
import { mrkdwn } from '../../../messages/mrkdwn.js';
import { brandFormModal, INPUT_ACTION_ID } from '../../views/brand-form-modal.js';
import type { BrandModalMetadata } from '../../views/brand-modal-metadata.js';
import { brandName } from '../../views/brand-name.js';
import { countrySelect } from '../../views/country-select.js';

export const ADD_MARKET_CALLBACK_ID = 'vis:markets:add';
export const ADD_MARKET_BLOCKS = { country: 'country', name: 'market_name' } as const;
/** A display name longer than this is refused under the input (Slack enforces it in the client too). */
export const MARKET_NAME_MAX = 100;

export function addMarketModal(
  brand: Pick<Brand, 'id' | 'name'> | undefined,
  where: Omit<BrandModalMetadata, 'brandId'>,
): ModalView {
  const to = brand ? mrkdwn`*${brandName(brand.name)}*` : mrkdwn`a brand`;
  return brandFormModal({
    callbackId: ADD_MARKET_CALLBACK_ID,
    brand,
    where,
    title: mrkdwn`Add market`,
    submit: mrkdwn`Add`,
    intro: mrkdwn`Add a geographic market to ${to}. The brand's first market becomes its primary market; the number of markets is limited by the plan.`,
    inputs: [
      {
        type: 'input',
        block_id: ADD_MARKET_BLOCKS.country,
        label: { type: 'plain_text', text: mrkdwn`Country` },
        element: countrySelect(INPUT_ACTION_ID),
      },
      {
        type: 'input',
        block_id: ADD_MARKET_BLOCKS.name,
        optional: true,
        label: { type: 'plain_text', text: mrkdwn`Display name` },
        hint: { type: 'plain_text', text: mrkdwn`Optional, e.g. "DACH launch".` },
        element: { type: 'plain_text_input', action_id: INPUT_ACTION_ID, max_length: MARKET_NAME_MAX },
      },
    ],
  });
}
