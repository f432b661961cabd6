/** Every `/visibility` subcommand, gathered from the feature folders (features/features.ts). */
import { features } from '../features/features.js';
import type { Subcommand } from './subcommand.js';

export const subcommands: Subcommand[] = features.flatMap((f) => f.subcommands ?? []);
