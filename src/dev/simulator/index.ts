/**
 * The Brand Visibility API simulator: a node:http server that behaves like the service in
 * docs/api.md (every endpoint of §4.1–4.11 plus /prism), with seeded deterministic data, real
 * rate limits, injectable faults and a local /__control endpoint. See docs/simulator.md.
 */
export { SEED_BRANDS, type SeedBrandKey, type SeedBrandRef, SIMULATOR_API_KEY } from './seed-brands.js';
export { startSimulator } from './start-simulator.js';
export type {
  AiPagesUsagePatch,
  CrawlerTrafficPatch,
  RecordedRequest,
  RunningSimulator,
  SimulatorControl,
  SimulatorFault,
  SimulatorLimits,
  SimulatorOptions,
  SnapshotChanges,
} from './types.js';
