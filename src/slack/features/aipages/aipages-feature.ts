import type { Feature } from '../../feature.js';
import { aipages } from './aipages.js';

export const aipagesFeature: Feature = { subcommands: [aipages] };
