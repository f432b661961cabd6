/**
 * Content ideas: paging, status filter and the generation state machine (docs/api.md §3).
 */
import { describe, expect, it } from 'vitest';
import { contentIdeasResponseSchema } from '../../../src/api/schemas/index.js';
import { systemClock } from '../../../src/clock.js';
import { SEED_BRANDS } from '../../../src/dev/simulator/index.js';
import { call, get, sim } from './sim-test-helpers.js';

const acme = SEED_BRANDS.acme.id;
const refresh = (s: Awaited<ReturnType<typeof sim>>, brand_id: string = acme) =>
  call(s, 'POST', '/get-content-ideas', { body: { brand_id, action: 'refresh' } });

describe('content ideas', () => {
  it('pages with limit and offset over the ranked list', async () => {
    const s = await sim();
    const all = contentIdeasResponseSchema.parse(
      (await get(s, '/get-content-ideas', { brand_id: acme, limit: 200 })).body,
    );
    const page = contentIdeasResponseSchema.parse(
      (await get(s, '/get-content-ideas', { brand_id: acme, limit: 5, offset: 5 })).body,
    );
    expect(page.ideas.map((i) => i.id)).toEqual(all.ideas.slice(5, 10).map((i) => i.id));
    expect(page.pagination).toEqual({ total: all.ideas.length, limit: 5, offset: 5, has_more: true });
    const defaults = contentIdeasResponseSchema.parse(
      (await get(s, '/get-content-ideas', { brand_id: acme })).body,
    );
    expect(defaults.pagination.limit).toBe(50);
  });

  it('filters by status', async () => {
    const s = await sim();
    for (const status of ['active', 'dismissed', 'implemented']) {
      const body = (await get(s, '/get-content-ideas', { brand_id: acme, status, limit: 200 })).body;
      expect(body.ideas.length).toBeGreaterThan(0);
      expect(body.ideas.every((i: { status: string }) => i.status === status)).toBe(true);
      expect(body.pagination.total).toBe(body.ideas.length);
    }
  });

  it('refresh → generating → already_generating → completed with new ideas', async () => {
    const s = await sim({ generationMs: 2_000 });
    const before = (await get(s, '/get-content-ideas', { brand_id: acme, limit: 200 })).body;

    expect((await refresh(s)).body).toMatchObject({ status: 'generating' });
    s.clock.advance(500);
    const during = (await get(s, '/get-content-ideas', { brand_id: acme, limit: 200 })).body;
    expect(during.meta.generation_status).toBe('generating');
    expect(during.ideas).toEqual(before.ideas);

    const again = await refresh(s);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: 'already_generating' });

    s.clock.advance(1_500);
    const after = (await get(s, '/get-content-ideas', { brand_id: acme, limit: 200 })).body;
    expect(after.meta.generation_status).toBe('completed');
    expect(after.meta.generated_at).toBe(new Date(s.clock.now()).toISOString());
    expect(Date.parse(after.meta.generated_at)).toBeGreaterThan(Date.parse(before.meta.generated_at));
    expect(after.ideas.map((i: { id: string }) => i.id)).not.toEqual(
      before.ideas.map((i: { id: string }) => i.id),
    );

    // A new run may start once the previous one completed.
    expect((await refresh(s)).body).toMatchObject({ status: 'generating' });
  });

  it('generation runs per brand', async () => {
    const s = await sim();
    await refresh(s);
    expect((await refresh(s, SEED_BRANDS.globex.id)).body.status).toBe('generating');
  });

  it('with alreadyGeneratingAs: conflict, a second refresh is a 409 naming already_generating', async () => {
    const s = await sim({ alreadyGeneratingAs: 'conflict', generationMs: 1_000 });
    await refresh(s);
    const again = await refresh(s);
    expect(again.status).toBe(409);
    expect(again.text).toContain('already_generating');
  });

  it('completes on a real clock after generationMs', async () => {
    const s = await sim({ clock: systemClock, generationMs: 400 });
    const started = Date.now();
    await refresh(s);
    const status = async () =>
      (await get(s, '/get-content-ideas', { brand_id: acme })).body.meta.generation_status;
    expect(await status()).toBe('generating');
    await expect.poll(status, { timeout: 5_000, interval: 25 }).toBe('completed');
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
  });

  it('regenerated ideas are deterministic', async () => {
    const a = await sim({ generationMs: 10 });
    const b = await sim({ generationMs: 10 });
    for (const s of [a, b]) {
      await refresh(s);
      s.clock.advance(10);
    }
    const [ia, ib] = await Promise.all(
      [a, b].map((s) => get(s, '/get-content-ideas', { brand_id: acme, limit: 200 })),
    );
    expect(ia!.body).toEqual(ib!.body);
  });
});
