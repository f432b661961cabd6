/**
 * Fixed identities of the simulator's seed data. Tests, the demo and docs refer to these,
 * so they never change between runs or releases.
 */

/** The one key the simulator accepts (docs/api.md §5: keys look like `sk_live_` + 32 characters). */
export const SIMULATOR_API_KEY = 'sk_live_Sim4VisibilityBot7Kq2Xw9Lm3Np8Rt';

export interface SeedBrandRef {
  readonly id: string;
  readonly name: string;
}

export const SEED_BRANDS = {
  /** owner, US, several markets, aliases, AI Pages enabled ~42 % used */
  acme: { id: 'a1c3e5f7-2b4d-4f60-8a1c-3e5f7a9b0c11', name: 'Acme Analytics' },
  /** viewer: brand writes, verification ping and submit-to-search answer 403 */
  northwind: { id: 'b2d4f6a8-3c5e-4a71-9b2d-4f6a8c0d1e22', name: 'Northwind Outfitters' },
  /** owner, no location (global mode), AI Pages not set up (config and usage null) */
  globex: { id: 'c3e5a7b9-4d6f-4b82-8c3e-5a7b9d1e2f33', name: 'Globex Corporation' },
  /** editor; its plan lacks AI Pages (403 on /ai-pages and /prism) */
  initech: { id: 'd4f6b8c0-5e7a-4c93-9d4f-6b8c0e2f3a44', name: 'Initech' },
  /** owner; shares the "Acme" prefix with Acme Analytics (brand-name ambiguity) */
  acmeLabs: { id: 'e5a7c9d1-6f8b-4da4-8e5a-7c9d1f3a4b55', name: 'Acme Labs' },
} as const satisfies Record<string, SeedBrandRef>;

export type SeedBrandKey = keyof typeof SEED_BRANDS;
