import type { Feature } from '../feature.js';
import { status } from './status.js';

export const statusFeature: Feature = { subcommands: [status] };
