/** `aliases <brand> edit` and the Edit aliases button: the aliases form, after the permission checks. */
import type { Brand } from '../../../api/schemas/index.js';
import { brandModalButton, type ModalOpener, openBrandModal } from '../../actions/open-brand-modal.js';
import { BRAND_WRITES } from '../../kit/brand-writes.js';
import { fetchBrandDetails } from '../../kit/fetch-brand-details.js';
import { aliasesModal } from './aliases-modal.js';
import { EDIT_ALIASES_ACTION } from './aliases-view.js';

/** Reads the current aliases first: the form edits the whole list. */
export function openAliasesModal(o: ModalOpener, brand: Brand): Promise<void> {
  return openBrandModal(o, brand, BRAND_WRITES.setAliases, async (where) => {
    const details = await fetchBrandDetails(o.deps, brand, ['aliases']);
    return aliasesModal(brand, details.aliases ?? [], where);
  });
}

export const editAliasesButton = brandModalButton(EDIT_ALIASES_ACTION, openAliasesModal);
