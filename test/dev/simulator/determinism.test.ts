/**
 * Two fresh simulators on the same clock serve identical data, endpoint by endpoint.
 */
import { expect, it } from 'vitest';
import { SEED_BRANDS } from '../../../src/dev/simulator/index.js';
import { call, get, sim } from './sim-test-helpers.js';

const reads: [string, Record<string, string>][] = [
  ['/get-brands', { include: 'markets,aliases' }],
  ['/get-content-ideas', { limit: '200' }],
  ['/get-citations', { limit: '500' }],
  ['/get-citations', { view: 'history', days: '90' }],
  ['/get-citations', { view: 'queries' }],
  ['/get-citations', { view: 'feed' }],
  ['/get-citations', { view: 'heatmap' }],
  ['/crawler/overview', { compare_to: 'previous_period' }],
  ['/crawler/live', { limit: '100' }],
  ['/crawler/live', { view: 'sessions' }],
  ['/crawler/pages', { lens: 'paths' }],
  ['/crawler/bot-details', { entity_id: 'gptbot' }],
  ['/crawler/access', {}],
  ['/crawler/submit-to-search/status', {}],
  ['/ai-pages', {}],
];

it('two fresh simulators return identical data for every brand', async () => {
  const a = await sim();
  const b = await sim();
  for (const brand of Object.values(SEED_BRANDS)) {
    for (const [path, query] of reads) {
      const [ra, rb] = await Promise.all([a, b].map((s) => get(s, path, { brand_id: brand.id, ...query })));
      expect(ra!.text, `${brand.name} ${path} ${JSON.stringify(query)}`).toBe(rb!.text);
    }
  }
});

it('the same scripted advances and writes lead to the same state', async () => {
  const a = await sim();
  const b = await sim();
  for (const s of [a, b]) {
    s.control.advanceSnapshot();
    s.control.advanceSnapshot();
    await call(s, 'POST', '/get-brands/markets', {
      body: { brand_id: SEED_BRANDS.globex.id, location: 'JP' },
    });
  }
  for (const s of [a, b]) expect(s.control.snapshotIndex()).toBe(a.control.snapshotIndex());
  for (const [path, query] of [
    ['/get-citations', { view: 'feed', days_back: '2' }],
    ['/get-brands', { include: 'markets' }],
  ] as const) {
    const [ra, rb] = await Promise.all(
      [a, b].map((s) => get(s, path, { brand_id: SEED_BRANDS.globex.id, ...query })),
    );
    expect(ra!.text).toBe(rb!.text);
  }
});

it('seed identities are fixed', () => {
  expect(SEED_BRANDS.acme.id).toBe('a1c3e5f7-2b4d-4f60-8a1c-3e5f7a9b0c11');
  expect(new Set(Object.values(SEED_BRANDS).map((b) => b.id)).size).toBe(5);
});
