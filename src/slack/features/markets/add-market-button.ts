/** `markets <brand> add` and the Add market button: the add-market form, after the permission checks. */
import type { Brand } from '../../../api/schemas/index.js';
import {
  brandModalButton,
  type ModalOpener,
  openBrandChoosingModal,
  openBrandModal,
} from '../../actions/open-brand-modal.js';
import { BRAND_WRITES } from '../../kit/brand-writes.js';
import { addMarketModal } from './add-market-modal.js';
import { MARKET_ACTIONS } from './markets-view.js';

export function openAddMarketModal(o: ModalOpener, brand: Brand): Promise<void> {
  return openBrandModal(o, brand, BRAND_WRITES.addMarket, (where) => addMarketModal(brand, where));
}

/** `markets add` with no brand named and no channel default: the form asks which brand. */
export function openAddMarketModalForAnyBrand(o: ModalOpener): Promise<void> {
  return openBrandChoosingModal(o, BRAND_WRITES.addMarket, (where) => addMarketModal(undefined, where));
}

export const addMarketButton = brandModalButton(MARKET_ACTIONS.add, openAddMarketModal);
