/**
 * The simulator at scale: `brands: N` (and `simulator --brands N`) serves the five seed
 * brands and N − 5 generated ones that are realistic, distinct and the same in every run,
 * and the control endpoint's scripted advance moves every one of them.
 */
import { describe, expect, it } from 'vitest';
import { runSimulatorCommand } from '../../../src/cli/simulator.js';
import { SEED_BRANDS } from '../../../src/dev/simulator/index.js';
import { type AnyJson, call, get, sim } from './sim-test-helpers.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('generated brands', () => {
  it('serves N brands: the five seeds with their roles, then distinct generated ones', async () => {
    const s = await sim({ brands: 60 });
    const res = await get(s, '/get-brands', { include: 'markets,aliases' });
    const brands: AnyJson[] = res.body.brands;
    expect(brands).toHaveLength(60);
    const seeds = Object.values(SEED_BRANDS).map((b) => b.id);
    expect(brands.slice(0, 5).map((b) => b.brand_id ?? b.id)).toEqual(seeds);
    const generated = brands.slice(5);
    const ids = generated.map((b) => b.brand_id ?? b.id);
    expect(new Set(ids).size).toBe(55);
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(generated.map((b) => b.brand_name ?? b.name)).size).toBe(55);

    // Every generated brand answers the endpoints the jobs poll.
    for (const id of ids.slice(0, 12)) {
      const [feed, overview, pages] = await Promise.all([
        get(s, '/get-citations', { brand_id: id, view: 'feed' }),
        get(s, '/crawler/overview', { brand_id: id, compare_to: 'previous_period' }),
        get(s, '/ai-pages', { brand_id: id }),
      ]);
      expect(feed.status).toBe(200);
      expect(overview.status).toBe(200);
      // Some customers' plans lack AI Pages, as on the real service.
      expect([200, 403]).toContain(pages.status);
    }
  });

  it('is deterministic: the same brand is the same in every run, whatever N', async () => {
    const a = await sim({ brands: 20 });
    const b = await sim({ brands: 40 });
    const [la, lb] = await Promise.all([a, b].map((s) => get(s, '/get-brands')));
    const idOf = (x: AnyJson) => x.brand_id ?? x.id;
    const id = idOf(la!.body.brands[17]);
    expect(idOf(lb!.body.brands[17])).toBe(id);
    for (const [path, query] of [
      ['/get-citations', { view: 'feed' }],
      ['/crawler/overview', {}],
      ['/ai-pages', {}],
    ] as const) {
      const [ra, rb] = await Promise.all([a, b].map((s) => get(s, path, { brand_id: id, ...query })));
      expect(ra!.text).toBe(rb!.text);
    }
  });

  it('the control endpoint advances every brand, seeds and generated alike', async () => {
    const s = await sim({ brands: 30 });
    const all: AnyJson[] = (await get(s, '/get-brands')).body.brands;
    const before = all.map((b) => s.control.citationUrls(b.brand_id ?? b.id).join('\n'));
    const res = await call(s, 'POST', '/__control/advance');
    expect(res.status).toBe(200);
    const after = all.map((b) => s.control.citationUrls(b.brand_id ?? b.id).join('\n'));
    const changed = after.filter((urls, i) => urls !== before[i]).length;
    expect(changed).toBe(30);
  });

  it('rejects a brand count it cannot serve', async () => {
    await expect(sim({ brands: 0 })).rejects.toThrow(/brands must be/);
  });
});

describe('simulator --brands', () => {
  it('serves that many brands and says so', async () => {
    let text = '';
    const stdout = { write: (c: string) => (text += c) };
    const stop = new AbortController();
    const running = runSimulatorCommand(['--port', '0', '--brands', '12'], { stdout, stop: stop.signal });
    await expect.poll(() => text, { timeout: 5_000 }).toContain('Press Ctrl+C');
    expect(text).toContain('Brands:   12');
    const url = /listening on (http:\/\/\S+)/.exec(text)![1]!;
    const key = /API key:\s+(\S+)/.exec(text)![1]!;
    const res = await fetch(`${url}/get-brands`, { headers: { authorization: `Bearer ${key}` } });
    expect(((await res.json()) as AnyJson).brands).toHaveLength(12);
    stop.abort();
    expect(await running).toBe(0);
  });

  it.each([['--brands'], ['--brands', '0'], ['--brands', 'many'], ['--brands=999999']])(
    'rejects %j with exit code 2',
    async (...args) => {
      let err = '';
      const code = await runSimulatorCommand(args, {
        stdout: { write: () => true },
        stderr: { write: (c: string) => (err += c) },
      });
      expect(code).toBe(2);
      expect(err).toContain('--brands');
    },
  );
});
