/**
 * /__control: the simulator's local test-tool endpoint (no auth; never part of the
 * simulated API, never recorded, never rate limited or faulted). JSON in and out; brand
 * references accept a UUID or a seed key ("acme", "northwind", …). See docs/simulator.md.
 */
import { z } from 'zod';
import { dateOfDay } from '../../utc-days.js';
import { resolveBrandRef, type SimulatorCore } from './simulator-core.js';
import type { SnapshotChanges } from './types.js';

interface ControlResponse {
  status: number;
  body: unknown;
}

const brandRef = z.string().min(1);

const advanceSchema = z
  .object({
    lose: z.array(z.string()).optional(),
    add: z.array(z.string()).optional(),
    sentiment: z.array(z.object({ url: z.string(), to: z.number() })).optional(),
    competitorAppeared: z.array(z.object({ url: z.string(), competitor: z.string() })).optional(),
    dropModel: z.string().min(1).optional(),
    restoreModel: z.string().min(1).optional(),
    brandId: brandRef.optional(),
    brand_id: brandRef.optional(),
  })
  .strict();

const usageSchema = z
  .object({
    brandId: brandRef.optional(),
    brand_id: brandRef.optional(),
    percentageUsed: z.number().min(0).max(100).optional(),
    requestsThisMonth: z.number().min(0).optional(),
    requestsLimit: z.number().min(1).optional(),
    resetDate: z.string().optional(),
    enabled: z.boolean().optional(),
    dailyGrowth: z.number().min(0).max(100).optional(),
  })
  .strict();

const trafficSchema = z
  .object({
    brandId: brandRef.optional(),
    brand_id: brandRef.optional(),
    factor: z.number().min(0),
    days: z.number().int().min(1).optional(),
    crawlers: z.array(z.string()).optional(),
  })
  .strict();

const rhythmSchema = z
  .object({
    brandId: brandRef.optional(),
    brand_id: brandRef.optional(),
    weekendDip: z.number().min(0).max(0.9).nullable(),
  })
  .strict();

const blockSchema = z
  .object({
    brandId: brandRef.optional(),
    brand_id: brandRef.optional(),
    crawler: z.string().min(1),
    blocked: z.boolean().optional(),
    days: z.number().int().min(1).optional(),
  })
  .strict();

const limitsSchema = z
  .object({
    perMinute: z.number().positive().optional(),
    burst: z.number().min(1).optional(),
    perDay: z.number().int().min(0).nullable().optional(),
    endpointPerMinute: z.number().int().min(1).nullable().optional(),
    windowMs: z.number().positive().optional(),
  })
  .strict();

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body ?? {});
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new Error(`${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`);
  }
  return result.data;
}

function brandIdOf(body: { brandId?: string | undefined; brand_id?: string | undefined }): string {
  const id = body.brandId ?? body.brand_id;
  if (!id) throw new Error('brandId is required');
  return id;
}

function state(core: SimulatorCore) {
  const { world, limiter, faults, options, requests } = core;
  const now = options.clock.now();
  return {
    snapshot_index: world.snapshotIndex(),
    current_snapshot_date: dateOfDay(world.today()),
    plan: options.plan,
    limits: limiter.limits(),
    rate: limiter.state(now),
    faults: faults.list(),
    request_count: requests.length,
    brands: [...world.brands.values()].map((b) => ({
      id: b.profile.id,
      name: b.profile.name,
      role: b.profile.role,
      generation_status: world.settleIdeas(b).status,
      ai_pages_usage: world.settleAiPagesUsage(b).usage,
      crawler_traffic: b.traffic,
    })),
  };
}

// Long by design: the simulator's control router, one short case per control route.
export function handleControl(
  core: SimulatorCore,
  method: string,
  path: string,
  query: Record<string, string>,
  body: unknown,
): ControlResponse {
  const { control } = core;
  const route = `${method} ${path.replace(/^\/__control/, '') || '/'}`;
  try {
    switch (route) {
      case 'GET /state':
      case 'GET /':
        return { status: 200, body: state(core) };
      case 'GET /requests':
        return { status: 200, body: { requests: core.requests } };
      case 'GET /citation-urls':
        return {
          status: 200,
          body: { urls: control.citationUrls(query['brand_id'] ?? query['brandId'] ?? 'acme') },
        };
      case 'POST /advance': {
        // No body: the scripted daily change. A JSON object (even {}): exactly those changes,
        // as advanceSnapshot(changes) does in process.
        let changes: SnapshotChanges | undefined;
        if (body !== undefined) {
          const { brand_id, brandId, ...rest } = parse(advanceSchema, body);
          const ref = brandId ?? brand_id;
          changes = { ...rest, ...(ref ? { brandId: ref } : {}) };
        }
        control.advanceSnapshot(changes);
        return {
          status: 200,
          body: {
            snapshot_index: control.snapshotIndex(),
            current_snapshot_date: dateOfDay(core.world.today()),
          },
        };
      }
      case 'POST /ai-pages-usage': {
        const parsed = parse(usageSchema, body);
        const { brandId: _a, brand_id: _b, ...patch } = parsed;
        const id = resolveBrandRef(core.world, brandIdOf(parsed));
        control.setAiPagesUsage(id, patch);
        const { config, usage } = core.world.settleAiPagesUsage(core.world.brand(id));
        return { status: 200, body: { ok: true, brand_id: id, config, usage } };
      }
      case 'POST /crawler-traffic': {
        const parsed = parse(trafficSchema, body);
        const { brandId: _a, brand_id: _b, ...patch } = parsed;
        const id = resolveBrandRef(core.world, brandIdOf(parsed));
        control.setCrawlerTraffic(id, patch);
        return {
          status: 200,
          body: { ok: true, brand_id: id, crawler_traffic: core.world.brand(id).traffic },
        };
      }
      case 'POST /crawler-rhythm': {
        const parsed = parse(rhythmSchema, body);
        const id = resolveBrandRef(core.world, brandIdOf(parsed));
        control.setCrawlerRhythm(id, { weekendDip: parsed.weekendDip });
        return {
          status: 200,
          body: { ok: true, brand_id: id, weekend_dip: core.world.brand(id).weekendDip },
        };
      }
      case 'POST /block-crawler': {
        const parsed = parse(blockSchema, body);
        const id = resolveBrandRef(core.world, brandIdOf(parsed));
        control.blockCrawler(id, parsed.crawler, parsed.blocked ?? true, parsed.days);
        const b = core.world.brand(id);
        return {
          status: 200,
          body: { ok: true, brand_id: id, robots_disallow: core.world.accessPolicy(b).robotsDisallow },
        };
      }
      case 'POST /faults':
        control.injectFault(body as never);
        return { status: 200, body: { faults: core.faults.list() } };
      case 'DELETE /faults':
        control.clearFaults();
        return { status: 200, body: { faults: [] } };
      case 'POST /limits':
        control.setLimits(parse(limitsSchema, body));
        return { status: 200, body: { limits: core.limiter.limits() } };
      case 'POST /reset':
        control.reset();
        return { status: 200, body: { ok: true, snapshot_index: control.snapshotIndex() } };
      default:
        return { status: 404, body: { error: `no control route ${route}` } };
    }
  } catch (err) {
    return { status: 400, body: { error: err instanceof Error ? err.message : String(err) } };
  }
}
