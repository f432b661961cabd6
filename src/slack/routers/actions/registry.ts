/**
 * Every `vis:` action handler: the ones every message can carry (Share, Open view, the
 * View menu), the
 * brand picker's buttons, then
 * the feature folders' own (features/features.ts).
 */

import type { ActionHandler } from '../../actions/action-handler.js';
import { features } from '../../features/features.js';
import { openView, switchView } from './open-view.js';
import { chooseBrand, pickBrand } from './pick-brand.js';
import { share } from './share.js';

export type { ActionContext, ActionHandler } from '../../actions/action-handler.js';

export const actionHandlers: ActionHandler[] = [
  share,
  openView,
  switchView,
  pickBrand,
  chooseBrand,
  ...features.flatMap((f) => f.actions ?? []),
];
