import type { Feature } from '../feature.js';
import { use } from './use.js';

export const useFeature: Feature = { subcommands: [use] };
