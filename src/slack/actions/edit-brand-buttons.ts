/**
 * Buttons that open a brand's edit forms (Add market, Set primary location, Edit aliases);
 * value JSON `{brandId}`. The permission checks run before the form opens.
 */
import type { Brand } from '../../api/schemas/index.js';
import {
  type ModalOpener,
  openAddMarketModal,
  openAliasesModal,
  openLocationModal,
} from '../open-brand-modals.js';
import { UserError } from '../user-error.js';
import { EDIT_ALIASES_ACTION } from '../views/aliases-view.js';
import { MARKET_ACTIONS } from '../views/markets-view.js';
import { mrkdwn } from '../views/mrkdwn.js';
import type { ActionContext, ActionHandler } from './action-handler.js';
import { parseActionValue } from './parse-action-value.js';

async function brandOf(ctx: ActionContext): Promise<Brand> {
  const { brandId } = parseActionValue(ctx.action.value);
  if (typeof brandId !== 'string' || brandId === '') {
    throw new UserError('stale_action', mrkdwn`That button is from an older message; run the command again.`);
  }
  return ctx.resolveBrand(brandId);
}

function modalButton(prefix: string, open: (o: ModalOpener, brand: Brand) => Promise<void>): ActionHandler {
  return { prefix, run: async (ctx) => open(ctx, await brandOf(ctx)) };
}

export const addMarketButton = modalButton(MARKET_ACTIONS.add, openAddMarketModal);
export const editLocationButton = modalButton('vis:location:edit', openLocationModal);
export const editAliasesButton = modalButton(EDIT_ALIASES_ACTION, openAliasesModal);
