/**
 * AI Pages usage grows with the simulator's clock, so the bot's usage forecast has
 * something to read in the demo and at scale: at a brand's daily pace from the value last
 * set, capped at 100 %, and from 0 again when the billing period resets. A brand with no
 * pace holds still (what the seed brands do unless told).
 */
import { describe, expect, it } from 'vitest';
import { SEED_BRANDS } from '../../../src/dev/simulator/index.js';
import { call, get, sim } from './sim-test-helpers.js';

const DAY = 86_400_000;
const acme = SEED_BRANDS.acme.id;
type Sim = Awaited<ReturnType<typeof sim>>;
const usageOf = async (s: Sim, brandId: string) =>
  (await get(s, '/ai-pages', { brand_id: brandId })).body.usage as {
    percentage_used: number;
    requests_this_month: number;
    requests_limit: number;
    reset_date: string;
  };

describe('AI Pages usage over simulated time', () => {
  it('grows at the pace set, caps at 100 % and starts from 0 in a new billing period', async () => {
    const s = await sim();
    const res = await call(s, 'POST', '/__control/ai-pages-usage', {
      auth: false,
      body: { brandId: acme, percentageUsed: 50, dailyGrowth: 4, resetDate: '2025-04-01T00:00:00.000Z' },
    });
    expect(res.status).toBe(200);
    expect(await usageOf(s, acme)).toMatchObject({ percentage_used: 50, requests_this_month: 50_000 });

    s.clock.advance(DAY / 2);
    expect(await usageOf(s, acme)).toMatchObject({ percentage_used: 52, requests_this_month: 52_000 });
    s.clock.advance(2 * DAY);
    expect((await usageOf(s, acme)).percentage_used).toBe(60);

    s.clock.advance(12 * DAY);
    expect((await usageOf(s, acme)).percentage_used).toBe(100);

    // 2025-03-14 15:00 + 14.5 days is 29 Mar 03:00; the period resets on 1 Apr 00:00.
    s.clock.set(Date.parse('2025-04-02T00:00:00Z'));
    expect(await usageOf(s, acme)).toMatchObject({
      percentage_used: 4,
      requests_this_month: 4_000,
      reset_date: '2025-05-01T00:00:00.000Z',
    });
  });

  it('holds still for a brand with no pace, and generated brands each grow at their own', async () => {
    const s = await sim({ brands: 8 });
    const before = await usageOf(s, acme);
    const generated = (await get(s, '/get-brands')).body.brands
      .map((b: { id: string }) => b.id)
      .filter((id: string) => !Object.values(SEED_BRANDS).some((seed) => seed.id === id));
    const grown: number[] = [];
    const start: number[] = [];
    for (const id of generated) {
      const u = (await get(s, '/ai-pages', { brand_id: id })).body.usage;
      start.push(u?.percentage_used ?? -1);
    }
    s.clock.advance(DAY);
    expect(await usageOf(s, acme)).toEqual(before);
    for (const id of generated) {
      const u = (await get(s, '/ai-pages', { brand_id: id })).body.usage;
      grown.push(u?.percentage_used ?? -1);
    }
    const setUp = start.map((v, i) => [v, grown[i]!] as const).filter(([v]) => v >= 0 && v < 99);
    expect(setUp.length).toBeGreaterThan(0);
    for (const [from, to] of setUp) expect(to).toBeGreaterThan(from);
  });
});
