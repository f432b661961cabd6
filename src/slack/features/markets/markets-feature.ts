import type { Feature } from '../feature.js';
import { addMarketButton } from './add-market-button.js';
import { addMarketSubmission } from './add-market-submission.js';
import { markets } from './markets.js';
import { removeMarket } from './remove-market.js';

export const marketsFeature: Feature = {
  subcommands: [markets],
  actions: [removeMarket, addMarketButton],
  submissions: [addMarketSubmission],
};
