import type { Feature } from '../feature.js';
import { help } from './help.js';

export const helpFeature: Feature = { subcommands: [help] };
