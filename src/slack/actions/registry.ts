/** Every `vis:` action handler. To add one: import it and append it here (one line). */
import type { ActionHandler } from './action-handler.js';
import { alertAck } from './alert-ack.js';
import { alertSnooze } from './alert-snooze.js';
import { citationsPageAction } from './citations-page-action.js';
import { crawlerDrawerAction } from './crawler-drawer-action.js';
import { crawlerMoreAction } from './crawler-more-action.js';
import { addMarketButton, editAliasesButton, editLocationButton } from './edit-brand-buttons.js';
import { ideasPageAction } from './ideas-page-action.js';
import { openView } from './open-view.js';
import { removeMarket } from './remove-market.js';
import { share } from './share.js';

export type { ActionContext, ActionHandler } from './action-handler.js';

export const actionHandlers: ActionHandler[] = [
  share,
  openView,
  removeMarket,
  addMarketButton,
  editLocationButton,
  editAliasesButton,
  ideasPageAction,
  citationsPageAction,
  crawlerMoreAction,
  crawlerDrawerAction,
  alertAck,
  alertSnooze,
];
