/**
 * The state one running simulator holds, and the control operations on it (used directly
 * by in-process tests and over HTTP by /__control).
 */

import { dateOfDay } from '../../utc-days.js';
import { BRAND_PROFILES } from './brand-profiles.js';
import { createFaultBook, type FaultBook } from './faults.js';
import { brandProfilesFor } from './generated-brands.js';
import { mergeLimits, type SimulatorOptionsResolved } from './resolve-options.js';
import { SEED_BRANDS, type SeedBrandKey } from './seed-brands.js';
import { createServiceRateLimits, type ServiceRateLimits } from './service-rate-limits.js';
import type { RecordedRequest, SimulatorControl } from './types.js';
import { createWorld, type World } from './world.js';

export interface SimulatorCore {
  readonly options: SimulatorOptionsResolved;
  world: World;
  readonly limiter: ServiceRateLimits;
  readonly faults: FaultBook;
  readonly requests: RecordedRequest[];
  readonly control: SimulatorControl;
}

/** A brand UUID, or a seed key such as "acme" (handy in demo scripts and curl). */
export function resolveBrandRef(world: World, ref: string): string {
  const seed = (SEED_BRANDS as Record<string, { id: string }>)[ref as SeedBrandKey];
  const id = (seed?.id ?? ref).toLowerCase();
  if (!world.brands.has(id)) throw new Error(`unknown brand: ${ref}`);
  return id;
}

export function createSimulatorCore(options: SimulatorOptionsResolved): SimulatorCore {
  const { clock } = options;
  const requests: RecordedRequest[] = [];
  const faults = createFaultBook();
  const limiter = createServiceRateLimits(options.limits, clock.now());
  const profiles = brandProfilesFor(BRAND_PROFILES, options.brands);
  const core: SimulatorCore = {
    options,
    world: createWorld(clock, options.generationMs, profiles),
    limiter,
    faults,
    requests,
    control: {
      advanceSnapshot: (changes) => {
        const brandId =
          changes?.brandId === undefined ? undefined : resolveBrandRef(core.world, changes.brandId);
        core.world.advanceSnapshot(changes ? { ...changes, ...(brandId ? { brandId } : {}) } : undefined);
      },
      setAiPagesUsage: (brandId, patch) =>
        core.world.setAiPagesUsage(resolveBrandRef(core.world, brandId), patch),
      setCrawlerTraffic: (brandId, patch) =>
        core.world.setCrawlerTraffic(resolveBrandRef(core.world, brandId), patch),
      setCrawlerRhythm: (brandId, patch) =>
        core.world.setCrawlerRhythm(resolveBrandRef(core.world, brandId), patch),
      blockCrawler: (brandId, crawler, blocked, days) =>
        core.world.blockCrawler(resolveBrandRef(core.world, brandId), crawler, blocked, days),
      injectFault: (fault) => faults.add(fault),
      clearFaults: () => faults.clear(),
      setLimits: (patch) => limiter.setLimits(mergeLimits(limiter.limits(), patch), clock.now()),
      reset: () => {
        core.world = createWorld(clock, options.generationMs, profiles);
        limiter.setLimits(options.limits, clock.now());
        faults.clear();
        // Emptied in place: callers hold on to this array.
        requests.length = 0;
      },
      snapshotIndex: () => core.world.snapshotIndex(),
      snapshotDate: () => dateOfDay(core.world.dayOfSnapshot(core.world.snapshotIndex())),
      citationUrls: (brandId) => {
        const brand = core.world.brand(resolveBrandRef(core.world, brandId));
        return [...brand.citations.snapshots.at(-1)!.keys()].sort();
      },
      crawlerVisits: (brandId, startDay, endDay) => {
        const brand = core.world.brand(resolveBrandRef(core.world, brandId));
        return core.world.trafficModel(brand).range(startDay, endDay).total;
      },
    },
  };
  return core;
}
