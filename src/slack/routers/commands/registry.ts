/** Every `/visibility` subcommand, gathered from the feature folders (features/features.ts). */

import type { Subcommand } from '../../commands/subcommand.js';
import { features } from '../../features/features.js';

export const subcommands: Subcommand[] = features.flatMap((f) => f.subcommands ?? []);
