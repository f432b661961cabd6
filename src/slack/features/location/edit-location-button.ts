/** `location <brand>` and the Set primary location button: the location form, after the permission checks. */
import type { Brand } from '../../../api/schemas/index.js';
import { brandModalButton, type ModalOpener, openBrandModal } from '../../actions/open-brand-modal.js';
import { BRAND_WRITES } from '../../kit/brand-writes.js';
import { locationModal } from './location-modal.js';

export const EDIT_LOCATION_ACTION = 'vis:location:edit';

export function openLocationModal(o: ModalOpener, brand: Brand): Promise<void> {
  return openBrandModal(o, brand, BRAND_WRITES.setLocation, (where) => locationModal(brand, where));
}

export const editLocationButton = brandModalButton(EDIT_LOCATION_ACTION, openLocationModal);
