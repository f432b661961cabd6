/**
 * The modals that change a brand, opened from a command (`markets <brand> add`,
 * `location <brand>`, `aliases <brand> edit`) or a button. The permission checks run
 * before the modal opens: nobody fills in a form only to be told they may not save it.
 */
import type { WebClient } from '@slack/web-api';
import type { Brand } from '../api/schemas/index.js';
import type { AppDeps } from '../app-deps.js';
import { BRAND_WRITES } from './brand-writes.js';
import { fetchBrandDetails } from './fetch-brand-details.js';
import { ensureCanEditBrand } from './permissions.js';
import { UserError } from './user-error.js';
import { addMarketModal } from './views/add-market-modal.js';
import { aliasesModal } from './views/aliases-modal.js';
import { fitView } from './views/block-kit-limits.js';
import type { ModalView } from './views/block-kit-types.js';
import { locationModal } from './views/location-modal.js';
import { mrkdwn } from './views/mrkdwn.js';

/** What both a CommandContext and an ActionContext offer. */
export interface ModalOpener {
  deps: AppDeps;
  userId: string;
  channelId: string | undefined;
  client: WebClient;
  triggerId: string | undefined;
  requireWriter(action: string): Promise<void>;
}

async function open(o: ModalOpener, view: ModalView): Promise<void> {
  if (!o.triggerId) {
    throw new UserError(
      'no_trigger',
      mrkdwn`Slack did not allow a form to open from here; run the command instead.`,
    );
  }
  await o.client.views.open({ trigger_id: o.triggerId, view: fitView(view) });
}

async function checked(o: ModalOpener, brand: Brand, action: string): Promise<void> {
  await o.requireWriter(action);
  ensureCanEditBrand(o.deps, o, brand, action);
}

const where = (o: ModalOpener) => (o.channelId ? { channelId: o.channelId } : {});

export async function openAddMarketModal(o: ModalOpener, brand: Brand): Promise<void> {
  await checked(o, brand, BRAND_WRITES.addMarket);
  await open(o, addMarketModal(brand, where(o)));
}

export async function openLocationModal(o: ModalOpener, brand: Brand): Promise<void> {
  await checked(o, brand, BRAND_WRITES.setLocation);
  await open(o, locationModal(brand, where(o)));
}

/** Reads the current aliases first: the form edits the whole list. */
export async function openAliasesModal(o: ModalOpener, brand: Brand): Promise<void> {
  await checked(o, brand, BRAND_WRITES.setAliases);
  const details = await fetchBrandDetails(o.deps, brand, ['aliases']);
  await open(o, aliasesModal(brand, details.aliases ?? [], where(o)));
}
