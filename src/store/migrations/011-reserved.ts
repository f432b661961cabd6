import type { Migration } from '../migrate.js';

/**
 * Version 11 is reserved for a schema change made alongside migration 12; until it lands
 * the versions must still run without a gap (migrate.ts refuses one), so it does nothing.
 * Replace this file with that migration when both are on one branch.
 */
export const reserved11: Migration = {
  version: 11,
  name: 'reserved',
  sqlite: '',
  postgres: '',
};
