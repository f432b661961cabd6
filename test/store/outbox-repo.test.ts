import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createOutboxRepo, type NewOutboxMessage } from '../../src/store/outbox-repo.js';
import { useTempOutbox } from './temp-db.js';

const ctx = useTempOutbox();

const NOW = 1_000_000;
const msg = (n: number, extra: Partial<NewOutboxMessage> = {}): NewOutboxMessage => ({
  dedupeKey: `C1:alerts:b1:${n}`,
  channelId: 'C1',
  brandId: 'b1',
  kind: 'alert',
  payload: {
    text: `alert ${n}`,
    blocks: [{ type: 'section' }],
    metadata: { event_type: 'visibility_alert', event_payload: { dedupe_key: `k${n}` } },
  },
  nowMs: NOW,
  ...extra,
});

describe('outbox repo', () => {
  it('enqueue is idempotent on the dedupe key', async () => {
    const a = await ctx.outbox.enqueue(msg(1));
    const b = await ctx.outbox.enqueue({ ...msg(1), payload: { text: 'different' } });
    expect(a.created).toBe(true);
    expect(b).toEqual({ id: a.id, created: false });
    expect((await ctx.outbox.get(a.id))!.payload.text).toBe('alert 1');
    expect(await ctx.outbox.counts()).toEqual({ pending: 1, held: 0, sending: 0, sent: 0, failed: 0 });
  });

  it('a duplicate of an already sent message is still a no-op', async () => {
    const { id } = await ctx.outbox.enqueue(msg(1));
    await ctx.outbox.claimDue(NOW, 10);
    await ctx.outbox.markSent(id, '1700000000.000100', NOW + 1);
    expect((await ctx.outbox.enqueue(msg(1))).created).toBe(false);
    expect(await ctx.outbox.claimDue(NOW + 10, 10)).toEqual([]);
  });

  it('claims due rows in order with a lease, and sent rows stay sent', async () => {
    await ctx.outbox.enqueue(msg(1));
    await ctx.outbox.enqueue(msg(2, { nowMs: NOW + 5000 }));
    await ctx.outbox.enqueue(msg(3));
    const claimed = await ctx.outbox.claimDue(NOW, 10, { leaseMs: 30_000 });
    expect(claimed.map((r) => r.payload.text)).toEqual(['alert 1', 'alert 3']);
    expect(claimed[0]).toMatchObject({
      status: 'sending',
      attempts: 1,
      leaseOwner: 'me',
      leaseUntilMs: NOW + 30_000,
    });
    expect(await ctx.outbox.claimDue(NOW, 10)).toEqual([]);
    expect(await ctx.outbox.markSent(claimed[0]!.id, '123.456', NOW + 1)).toBe(true);
    expect(await ctx.outbox.get(claimed[0]!.id)).toMatchObject({
      status: 'sent',
      slackTs: '123.456',
      sentAtMs: NOW + 1,
      leaseOwner: null,
    });
    expect((await ctx.outbox.claimDue(NOW + 5000, 1)).map((r) => r.payload.text)).toEqual(['alert 2']);
  });

  it('retry puts a row back for later; failure is final', async () => {
    const { id } = await ctx.outbox.enqueue(msg(1));
    await ctx.outbox.claimDue(NOW, 1);
    expect(await ctx.outbox.markRetry(id, 'ratelimited', NOW + 60_000)).toBe(true);
    expect(await ctx.outbox.get(id)).toMatchObject({
      status: 'pending',
      lastError: 'ratelimited',
      nextAttemptAtMs: NOW + 60_000,
    });
    expect(await ctx.outbox.claimDue(NOW + 59_999, 1)).toEqual([]);
    const again = await ctx.outbox.claimDue(NOW + 60_000, 1);
    expect(again[0]!.attempts).toBe(2);
    expect(await ctx.outbox.markFailed(id, 'channel_not_found')).toBe(true);
    expect(await ctx.outbox.get(id)).toMatchObject({ status: 'failed', lastError: 'channel_not_found' });
    expect(await ctx.outbox.claimDue(NOW + 1e9, 1)).toEqual([]);
    expect(await ctx.outbox.markRetry(id, 'x', 0)).toBe(false);
  });

  it('held rows wait for their hold to end, then are released', async () => {
    const { id } = await ctx.outbox.enqueue(msg(1, { holdUntilMs: NOW + 1000 }));
    await ctx.outbox.enqueue(msg(2, { holdUntilMs: NOW - 1 }));
    expect(await ctx.outbox.get(id)).toMatchObject({ status: 'held', holdUntilMs: NOW + 1000 });
    expect((await ctx.outbox.listHeld('C1')).map((r) => r.id)).toEqual([id]);
    expect((await ctx.outbox.claimDue(NOW + 5000, 10)).map((r) => r.payload.text)).toEqual(['alert 2']);
    expect(await ctx.outbox.releaseHeld(NOW + 999)).toBe(0);
    expect(await ctx.outbox.releaseHeld(NOW + 1000)).toBe(1);
    expect((await ctx.outbox.claimDue(NOW + 1000, 10)).map((r) => r.id)).toEqual([id]);
  });

  it('a claimed row can be held again when a mute began meanwhile', async () => {
    const { id } = await ctx.outbox.enqueue(msg(1));
    await ctx.outbox.claimDue(NOW, 1);
    expect(await ctx.outbox.hold(id, NOW + 100)).toBe(true);
    expect(await ctx.outbox.get(id)).toMatchObject({ status: 'held', attempts: 0 });
    await ctx.outbox.releaseHeld(NOW + 100);
    expect(await ctx.outbox.claimDue(NOW + 100, 1)).toHaveLength(1);
  });

  it('rows a crashed process left in sending are listed for recovery, then requeued or marked sent', async () => {
    const a = (await ctx.outbox.enqueue(msg(1))).id;
    const b = (await ctx.outbox.enqueue(msg(2))).id;
    await ctx.outbox.claimDue(NOW, 10, { leaseMs: 1000 });
    expect(await ctx.outbox.listSending(NOW + 999)).toEqual([]);
    expect((await ctx.outbox.listSending(NOW + 1000)).map((r) => r.id)).toEqual([a, b]);
    expect((await ctx.outbox.listSending()).map((r) => r.id)).toEqual([a, b]);
    // The relay found a's metadata in the channel history, b's not.
    await ctx.outbox.markSent(a, '1.2', NOW + 2000);
    expect(await ctx.outbox.requeue(b, NOW + 2000)).toBe(true);
    expect(await ctx.outbox.get(b)).toMatchObject({ status: 'pending', attempts: 0 });
    expect((await ctx.outbox.claimDue(NOW + 2000, 10)).map((r) => r.id)).toEqual([b]);
  });

  it('counts by status, keeps errors short, purges finished rows', async () => {
    const ids: number[] = [];
    for (const n of [1, 2, 3]) ids.push((await ctx.outbox.enqueue(msg(n))).id);
    await ctx.outbox.enqueue(msg(4, { holdUntilMs: NOW + 1 }));
    await ctx.outbox.claimDue(NOW, 2);
    await ctx.outbox.markSent(ids[0]!, '1.1', NOW);
    await ctx.outbox.markFailed(ids[1]!, 'e'.repeat(5000));
    expect((await ctx.outbox.get(ids[1]!))!.lastError).toHaveLength(1000);
    expect(await ctx.outbox.counts()).toEqual({ pending: 1, held: 1, sending: 0, sent: 1, failed: 1 });
    expect(await ctx.outbox.purgeFinished(NOW + 1)).toBe(2);
    expect(await ctx.outbox.getByDedupeKey(msg(1).dedupeKey)).toBeNull();
    expect((await ctx.outbox.getByDedupeKey(msg(3).dedupeKey))!.id).toBe(ids[2]);
  });

  it('two connections to one file claiming in turn never get the same row', async () => {
    const other = createOutboxRepo(ctx.t.open(), { owner: 'other' });
    for (let i = 0; i < 200; i++) await ctx.outbox.enqueue(msg(i));
    const mine: number[] = [];
    const theirs: number[] = [];
    for (;;) {
      const a = await ctx.outbox.claimDue(NOW, 7);
      const b = await other.claimDue(NOW, 5);
      mine.push(...a.map((r) => r.id));
      theirs.push(...b.map((r) => r.id));
      if (a.length === 0 && b.length === 0) break;
    }
    expect(new Set([...mine, ...theirs]).size).toBe(200);
    expect(mine.filter((id) => theirs.includes(id))).toEqual([]);
    expect(
      (await ctx.outbox.listSending()).every((r) =>
        mine.includes(r.id) ? r.leaseOwner === 'me' : r.leaseOwner === 'other',
      ),
    ).toBe(true);
  });

  it('four processes claiming at the same time never claim the same row', async () => {
    for (let i = 0; i < 2000; i++) await ctx.outbox.enqueue(msg(i, { nowMs: 0 }));
    const worker = fileURLToPath(new URL('./outbox-claim-worker.ts', import.meta.url));
    const workers = ['w1', 'w2', 'w3', 'w4'].map((owner) =>
      spawn(process.execPath, ['--import', 'tsx', worker, ctx.t.path, owner, '2'], {
        stdio: ['pipe', 'pipe', 'inherit'],
      }),
    );
    const outputs = workers.map((w) => {
      let out = '';
      w.stdout.setEncoding('utf8');
      w.stdout.on('data', (chunk: string) => {
        out += chunk;
      });
      return {
        ready: new Promise<void>((resolve) => {
          const check = () => (out.startsWith('ready\n') ? resolve() : w.stdout.once('data', check));
          check();
        }),
        done: once(w, 'exit').then(() => out),
      };
    });
    // A barrier: nobody claims before everybody is up.
    await Promise.all(outputs.map((o) => o.ready));
    for (const w of workers) w.stdin.write('go\n');
    const claims = (await Promise.all(outputs.map((o) => o.done))).map(
      (out) => JSON.parse(out.slice('ready\n'.length)) as number[],
    );
    const all = claims.flat();
    expect(all).toHaveLength(2000);
    expect(new Set(all).size).toBe(2000);
    // More than one process got rows: the claims really overlapped.
    expect(claims.filter((c) => c.length > 0).length).toBeGreaterThan(1);
  }, 90_000);
});
