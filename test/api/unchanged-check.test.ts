/**
 * parse-response.ts returns a body as it is when unchanged-check.ts says zod's copy of it
 * would be equal. Checked against zod itself: on the simulator's real bodies of every
 * schema the client reads, and on those bodies damaged at random, a "yes" must always be
 * a body zod accepts and copies to an equal value.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { safeParse } from 'zod/v4/core';
import { InvalidResponseError } from '../../src/api/errors.js';
import { parseResponse } from '../../src/api/parse-response.js';
import * as S from '../../src/api/schemas/index.js';
import { unchangedCheck } from '../../src/api/unchanged-check.js';
import { type RunningSimulator, SEED_BRANDS, startSimulator } from '../../src/dev/simulator/index.js';

let sim: RunningSimulator;
const bodies = new Map<string, { schema: z.ZodMiniType; body: unknown }>();
const brand = SEED_BRANDS.acme.id;

const reads: [string, z.ZodMiniType][] = [
  [`/get-brands?brand_id=${brand}`, S.brandsResponseSchema],
  [`/get-content-ideas?brand_id=${brand}`, S.contentIdeasResponseSchema],
  [`/get-citations?brand_id=${brand}&view=list`, S.citationListResponseSchema],
  [`/get-citations?brand_id=${brand}&view=history`, S.citationHistoryResponseSchema],
  [`/get-citations?brand_id=${brand}&view=queries`, S.citationQueriesResponseSchema],
  [`/get-citations?brand_id=${brand}&view=sources&domain={domain}`, S.citationSourcesResponseSchema],
  [`/get-citations?brand_id=${brand}&view=feed&days_back=30`, S.citationFeedResponseSchema],
  [`/get-citations?brand_id=${brand}&view=heatmap`, S.citationHeatmapResponseSchema],
  [`/crawler/overview?brand_id=${brand}`, S.crawlerOverviewSchema],
  [`/crawler/pages?brand_id=${brand}`, S.loosePayloadSchema],
  [`/ai-pages?brand_id=${brand}`, S.aiPagesRecordSchema],
];

beforeAll(async () => {
  sim = await startSimulator({ limits: { perMinute: 10_000, burst: 10_000, endpointPerMinute: 10_000 } });
  let domain = '';
  for (const [path, schema] of reads) {
    const url = `${sim.url}${path.replace('{domain}', domain)}`;
    const res = await fetch(url, { headers: { authorization: `Bearer ${sim.apiKey}` } });
    expect(res.status, path).toBe(200);
    const body = (await res.json()) as { citations?: { domain: string }[] };
    domain ||= body.citations?.[0]?.domain ?? '';
    bodies.set(path, { schema, body });
  }
});
afterAll(async () => {
  await sim.close();
});

/** What zod makes of `value`: its copy, or null when it refuses it. */
const zodCopy = (schema: z.ZodMiniType, value: unknown) => {
  const r = safeParse(schema, value);
  return r.success ? r.data : null;
};

describe('unchangedCheck', () => {
  it('passes the real bodies of every schema the client reads, and zod copies each to an equal value', () => {
    for (const [path, { schema, body }] of bodies) {
      expect(zodCopy(schema, body), path).toStrictEqual(body);
      // The queries view's gap queries are a union of objects: zod decides those (and copies them).
      expect(unchangedCheck(schema)(body), path).toBe(!path.includes('view=queries'));
    }
  });

  it('says yes to a damaged body only when zod accepts it and copies it unchanged', () => {
    const paths = [...bodies.keys()];
    fc.assert(
      fc.property(
        fc.constantFrom(...paths),
        fc.array(fc.tuple(fc.nat(), fc.nat(), damage()), { minLength: 1, maxLength: 3 }),
        (path, cuts) => {
          const { schema, body } = bodies.get(path)!;
          const value = structuredClone(body);
          for (const [at, key, change] of cuts) change(pick(value, at), key);
          if (unchangedCheck(schema)(value)) expect(zodCopy(schema, value)).toStrictEqual(value);
        },
      ),
      { numRuns: 3_000 },
    );
  });

  it('refuses what zod would refuse or change, field by field', () => {
    const feed = bodies.get(reads[6]![0])!.body as { events: Record<string, unknown>[] };
    const check = unchangedCheck(S.citationFeedResponseSchema);
    /** The feed with its first event's `field` set to `value` (`undefined`: removed). */
    const withField = (field: string, value: unknown) => {
      const copy = structuredClone(feed);
      if (value === undefined) delete copy.events[0]![field];
      else copy.events[0]![field] = value;
      return check(copy);
    };
    expect(check(feed)).toBe(true);
    expect(withField('url', 7)).toBe(false);
    expect(withField('timestamp', undefined)).toBe(false);
    expect(withField('sentiment', Number.NaN)).toBe(false);
    expect(withField('prompts', ['a', 3])).toBe(false);
    expect(check({ ...feed, events: {} })).toBe(false);
    // Kept as they are by a loose object: unknown keys, and null where nullish.
    expect(withField('extra', { any: 'thing' })).toBe(true);
    expect(withField('h1', null)).toBe(true);
    // A range (a check zod runs), a default zod fills in, a stripping and a strict object.
    const pct = unchangedCheck(S.aiPagesUsageSchema);
    const usage = (bodies.get(reads[10]![0])!.body as { usage: Record<string, unknown> }).usage;
    expect(pct(usage)).toBe(true);
    expect(pct({ ...usage, percentage_used: 101 })).toBe(false);
    expect(unchangedCheck(z._default(z.array(z.string()), []))(undefined)).toBe(false);
    expect(unchangedCheck(z.object({ a: z.string() }))({ a: 'x' })).toBe(true);
    expect(unchangedCheck(z.object({ a: z.string() }))({ a: 'x', b: 1 })).toBe(false);
    expect(unchangedCheck(z.strictObject({ a: z.string() }))({ a: 'x', b: 1 })).toBe(false);
    expect(unchangedCheck(z.looseObject({ constructor: z.optional(z.string()) }))({})).toBe(true);
  });
});

describe('parseResponse', () => {
  it('returns a body of the right shape as it is, and names the first offending field of one that is not', () => {
    const { schema, body } = bodies.get(reads[6]![0])!;
    expect(parseResponse(schema, body, 'GET /get-citations')).toBe(body);
    const broken = structuredClone(body) as { events: { timestamp: unknown }[] };
    broken.events[2]!.timestamp = 5;
    expect(() => parseResponse(schema, broken, 'GET /get-citations')).toThrow(InvalidResponseError);
    expect(() => parseResponse(schema, broken, 'GET /get-citations')).toThrow(
      'GET /get-citations returned an unexpected response: events.2.timestamp: expected string.',
    );
  });
});

type Change = (target: unknown, key: number) => void;

/** Every object and array of `value`, depth first: the `at`-th of them (wrapping round). */
function pick(value: unknown, at: number): unknown {
  const all: unknown[] = [];
  const walk = (v: unknown) => {
    if (typeof v !== 'object' || v === null) return;
    all.push(v);
    for (const x of Object.values(v)) walk(x);
  };
  walk(value);
  return all[at % all.length];
}

/** One damage to an object or array: a key set to another JSON value, removed, or added (objects only). */
function damage(): fc.Arbitrary<Change> {
  const json = fc.oneof(
    fc.constantFrom(null, '', 'x', 0, -1, 1.5, 101, true, false, [], {}, ['x'], [1], { a: 1 }),
    fc.jsonValue({ maxDepth: 2 }),
  );
  // An array keeps to its elements, as JSON.parse makes them.
  const keyOf = (target: object, key: number) => {
    const keys = Object.keys(target);
    return keys.length === 0 ? (Array.isArray(target) ? '0' : 'k') : keys[key % keys.length]!;
  };
  return fc.oneof(
    json.map(
      (v): Change =>
        (t, k) => {
          if (typeof t === 'object' && t !== null)
            (t as Record<string, unknown>)[keyOf(t, k)] = structuredClone(v);
        },
    ),
    fc.constant<Change>((t, k) => {
      if (typeof t === 'object' && t !== null && !Array.isArray(t))
        delete (t as Record<string, unknown>)[keyOf(t, k)];
    }),
    fc.tuple(fc.string(), json).map(
      ([name, v]): Change =>
        (t) => {
          if (typeof t === 'object' && t !== null && !Array.isArray(t))
            (t as Record<string, unknown>)[name] = structuredClone(v);
        },
    ),
  );
}
