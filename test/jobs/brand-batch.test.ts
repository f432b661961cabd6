/**
 * brand-batch.ts on a real SQLite file: brands' writes committed a batch at a time with
 * their success records, and a batch that fails on one brand's bad data written again
 * brand by brand, so only that brand fails.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { BrandRef } from '../../src/alerts/types.js';
import { brandBatch } from '../../src/jobs/brand-batch.js';
import type { BatchWrites } from '../../src/jobs/job-definition.js';
import type { OutboxRepo } from '../../src/store/outbox-repo.js';
import { enqueueForChannel, noCounts } from '../../src/use-cases/enqueue-alerts.js';
import { type TempDb, tempDb } from '../store/temp-db.js';

let t: TempDb;
beforeEach(() => {
  t = tempDb();
});
afterEach(() => t.close());

const brand = (i: number): BrandRef => ({ id: `b${i}`, name: `Brand ${i}` });

it('commits a batch once it is full, the rest at flush, and fails only the brand whose write threw', async () => {
  const store = t.store;
  const committed: string[] = [];
  const failed: string[] = [];
  const batch = brandBatch({
    transaction: store.transaction,
    outbox: store.outbox(),
    recordSuccesses: (brandIds) => store.jobRuns.recordBrandSuccesses('citations', brandIds, 1),
    writeRows: async (rows) => {
      await store.pollObservations.putMany(rows.observations);
      await store.channelDetectorState.putLevels(rows.levels);
      await store.crawlerHistory.writeMany(rows.histories);
    },
    committed: (b) => committed.push(b.id),
    failed: (b) => failed.push(b.id),
    size: 3,
  });
  const attempts = new Map<string, number>();
  const write = (b: BrandRef) => async (batch: BatchWrites) => {
    attempts.set(b.id, (attempts.get(b.id) ?? 0) + 1);
    batch.observe({
      brandId: b.id,
      source: 'crawler',
      data: { attempt: attempts.get(b.id) },
      observedAtMs: 1,
    });
    const state = { dropping: true, episode: attempts.get(b.id)!, lastChangePct: -50 };
    batch.saveLevel({ channelId: 'C1', brandId: b.id, detector: 'crawler', state, nowMs: 1 });
    batch.saveHistory({ brandId: b.id, history: { '2025-03-09': attempts.get(b.id)! }, nowMs: 1 });
    await store.snoozes.snooze({
      channelId: 'C1',
      brandId: b.id,
      kind: 'citation_lost',
      untilMs: 10,
      createdBy: null,
      createdAtMs: 1,
    });
    if (b.id === 'b2') throw new Error('bad data');
    return { ...noCounts(), alerts: 1 };
  };
  await batch.add(brand(0), write(brand(0)));
  await batch.add(brand(1), write(brand(1)));
  expect(committed).toEqual([]);
  // The third brand fills the batch; b2's write fails it, so each is written alone.
  await batch.add(brand(2), write(brand(2)));
  expect(committed).toEqual(['b0', 'b1']);
  expect(failed).toEqual(['b2']);
  expect(attempts).toEqual(
    new Map([
      ['b0', 2],
      ['b1', 2],
      ['b2', 2],
    ]),
  );
  await batch.add(brand(3), write(brand(3)));
  expect(committed).toEqual(['b0', 'b1']);
  await batch.flush();
  expect(committed).toEqual(['b0', 'b1', 'b3']);
  const success = await store.jobRuns.lastSuccessByBrand('citations');
  expect([...success.keys()].toSorted()).toEqual(['b0', 'b1', 'b3']);
  // b2's snooze and observation went with its failed write; the others' stayed, the
  // observation the last attempt's (one statement for the batch, in its transaction).
  for (const id of ['b0', 'b1', 'b3']) expect((await store.snoozes.active('C1', id, 1)).size).toBe(1);
  expect((await store.snoozes.active('C1', 'b2', 1)).size).toBe(0);
  for (const [id, episode] of [
    ['b0', 2],
    ['b1', 2],
    ['b3', 1],
  ] as const)
    expect((await store.channelDetectorState.getCrawler('C1', id))?.episode).toBe(episode);
  expect(await store.channelDetectorState.getCrawler('C1', 'b2')).toBeNull();
  expect(await store.crawlerHistory.get('b0')).toEqual({ '2025-03-09': 2 });
  expect(await store.crawlerHistory.get('b3')).toEqual({ '2025-03-09': 1 });
  expect(await store.crawlerHistory.get('b2')).toEqual({});
  const observed = await store.pollObservations.allOf<{ attempt: number }>('crawler');
  expect(new Map([...observed].map(([id, o]) => [id, o.data.attempt]))).toEqual(
    new Map([
      ['b0', 2],
      ['b1', 2],
      ['b3', 1],
    ]),
  );
});

it("reads the snoozes of all a batch's brands in one statement, and each brand's write sees its own", async () => {
  const store = t.store;
  await store.snoozes.snooze({
    channelId: 'C1',
    brandId: 'b1',
    kind: 'citation_lost',
    untilMs: 100,
    createdBy: 'U1',
    createdAtMs: 0,
  });
  const reads: string[][] = [];
  const snoozes = {
    active: store.snoozes.active,
    activeOfBrands: (ids: readonly string[], nowMs: number) => {
      reads.push([...ids]);
      return store.snoozes.activeOfBrands(ids, nowMs);
    },
  };
  const seen = new Map<string, Map<string, number>>();
  const batch = brandBatch({
    transaction: store.transaction,
    outbox: store.outbox(),
    recordSuccesses: (brandIds) => store.jobRuns.recordBrandSuccesses('citations', brandIds, 1),
    writeRows: async () => {},
    snoozes,
    committed: () => {},
    failed: (b, err) => {
      throw new Error(`${b.id} failed: ${String(err)}`);
    },
    size: 3,
  });
  const write = (b: BrandRef) => async (w: BatchWrites) => {
    seen.set(b.id, await w.snoozes.active('C1', b.id, 10));
    return noCounts();
  };
  for (let i = 0; i < 3; i++) await batch.add(brand(i), write(brand(i)));
  await batch.flush();
  expect(reads).toEqual([['b0', 'b1', 'b2']]);
  expect(seen).toEqual(
    new Map([
      ['b0', new Map()],
      ['b1', new Map([['citation_lost', 100]])],
      ['b2', new Map()],
    ]),
  );
});

it('holds a brand queued for the next batch while a batch commits, so fetched brands do not pile up', async () => {
  const store = t.store;
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const committed: string[] = [];
  const batch = brandBatch({
    transaction: store.transaction,
    outbox: store.outbox(),
    recordSuccesses: async () => {},
    writeRows: async () => {},
    committed: (b) => committed.push(b.id),
    failed: () => {},
    size: 2,
  });
  const quick = async () => noCounts();
  const slow = async () => {
    await held;
    return noCounts();
  };
  void batch.add(brand(0), quick);
  // The second brand fills the batch, whose commit waits on `slow`.
  const firstBatch = batch.add(brand(1), slow);
  let nextAdded = false;
  const next = batch.add(brand(2), quick).then(() => {
    nextAdded = true;
  });
  await new Promise((resolve) => setImmediate(resolve));
  expect(committed).toEqual([]);
  expect(nextAdded).toBe(false);
  release();
  await firstBatch;
  await next;
  expect(committed).toEqual(['b0', 'b1']);
  expect(nextAdded).toBe(true);
  // Not committed yet: its batch is not full; the end of the run flushes it.
  await batch.flush();
  expect(committed).toEqual(['b0', 'b1', 'b2']);
});

it("writes a batch's messages in one statement; one already in the outbox makes it write each brand alone, counting exactly", async () => {
  const store = t.store;
  const outbox = store.outbox();
  const calls = { one: 0, many: 0 };
  const counted: Pick<OutboxRepo, 'enqueue' | 'enqueueMany'> = {
    enqueue: (m) => {
      calls.one += 1;
      return outbox.enqueue(m);
    },
    enqueueMany: (ms) => {
      calls.many += 1;
      return outbox.enqueueMany(ms);
    },
  };
  const messages = new Map<string, number>();
  const batch = brandBatch({
    transaction: store.transaction,
    outbox: counted,
    recordSuccesses: async () => {},
    writeRows: async () => {},
    committed: (b, counts) => messages.set(b.id, counts.messages),
    failed: (b, err) => {
      throw new Error(`${b.id} failed: ${String(err)}`);
    },
    size: 3,
  });
  const write = (b: BrandRef, run: number) => async (w: BatchWrites) => {
    const message = {
      kind: 'alert' as const,
      key: `${b.id}:run${run}`,
      build: () => ({ text: `${b.id} ${run}` }),
    };
    const created = await enqueueForChannel(w.outbox, { channelId: 'C1', brandId: b.id }, message, 1);
    return { ...noCounts(), messages: created ? 1 : 0 };
  };
  for (let i = 0; i < 3; i++) await batch.add(brand(i), write(brand(i), 1));
  expect(calls).toEqual({ one: 0, many: 1 });
  expect(Object.fromEntries(messages)).toEqual({ b0: 1, b1: 1, b2: 1 });
  // b1's message of the next run is there already (written by an earlier attempt).
  await outbox.enqueue({
    dedupeKey: 'C1:b1:run2',
    channelId: 'C1',
    brandId: 'b1',
    kind: 'alert',
    payload: { text: 'b1 2' },
    nowMs: 1,
  });
  calls.one = 0;
  for (let i = 0; i < 3; i++) await batch.add(brand(i), write(brand(i), 2));
  // The batch's statement wrote nothing (rolled back); each brand then wrote its own.
  expect(calls).toEqual({ one: 3, many: 2 });
  expect(Object.fromEntries(messages)).toEqual({ b0: 1, b1: 0, b2: 1 });
  const rows = t.db.prepare('SELECT dedupe_key FROM outbox ORDER BY dedupe_key').pluck().all();
  expect(rows).toEqual(['C1:b0:run1', 'C1:b0:run2', 'C1:b1:run1', 'C1:b1:run2', 'C1:b2:run1', 'C1:b2:run2']);
});
