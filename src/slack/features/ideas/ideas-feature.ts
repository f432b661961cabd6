import type { Feature } from '../feature.js';
import { ideas } from './ideas.js';
import { ideasCheckAction } from './ideas-check-action.js';
import { ideasPageAction } from './ideas-page-action.js';

export const ideasFeature: Feature = { subcommands: [ideas], actions: [ideasPageAction, ideasCheckAction] };
