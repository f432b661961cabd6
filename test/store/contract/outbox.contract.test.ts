/**
 * OutboxRepo on both backends: idempotent enqueue, claims with leases, retries, holds,
 * crash recovery, send-after times and per-channel claims, and the guarantees replicas
 * rely on: connections claiming at once never get the same row, two enqueues of one
 * message make one row, and nothing written in a failed transaction stays.
 */
import { describe, expect, it } from 'vitest';
import type { NewOutboxMessage, OutboxRepo } from '../../../src/store/outbox-repo.js';
import { alertMessage } from '../alert-message.js';
import { describeBackends, type TestBackend } from './store-backends.js';

const repoOn = (b: TestBackend, owner = 'me'): OutboxRepo => b.store().outbox({ owner });

const NOW = 1_000_000;
const msg = (n: number, extra: Partial<NewOutboxMessage> = {}): NewOutboxMessage =>
  alertMessage(n, NOW, extra);

const AT = NOW + 45 * 60_000;
const digest = (channel: string, n: number, extra: Partial<NewOutboxMessage> = {}): NewOutboxMessage => ({
  dedupeKey: `${channel}:digest:b${n}:2026-11-24`,
  channelId: channel,
  brandId: `b${n}`,
  kind: 'digest',
  payload: { text: `digest ${channel} ${n}` },
  nowMs: NOW,
  ...extra,
});

/** Strings (keys too) with NUL as U+FFFD, what Postgres keeps of them. */
const withoutNul = (v: unknown): unknown => {
  if (typeof v === 'string') return v.replaceAll('\u0000', '\uFFFD');
  if (Array.isArray(v)) return v.map(withoutNul);
  if (v !== null && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [withoutNul(k), withoutNul(x)]));
  }
  return v;
};

describeBackends('outbox repo', (backend) => {
  describe('rows and their states', () => {
    it('enqueue is idempotent on the dedupe key', async () => {
      const outbox = repoOn(backend());
      const a = await outbox.enqueue(msg(1));
      const b = await outbox.enqueue({ ...msg(1), payload: { text: 'different' } });
      expect(a.created).toBe(true);
      expect(b).toEqual({ id: a.id, created: false });
      expect(await outbox.get(a.id)).toMatchObject({
        dedupeKey: msg(1).dedupeKey,
        channelId: 'C1',
        brandId: 'b1',
        kind: 'alert',
        payload: msg(1).payload,
        status: 'pending',
        attempts: 0,
        nextAttemptAtMs: NOW,
        createdAtMs: NOW,
        holdUntilMs: null,
        sendAfterMs: null,
      });
      expect(await outbox.counts()).toEqual({ pending: 1, held: 0, sending: 0, sent: 0, failed: 0 });
    });

    it('enqueueMany writes the rows enqueue would, and leaves out keys that exist or come twice', async () => {
      const one = repoOn(backend(), 'one');
      const many = repoOn(backend(), 'many');
      const held = { holdUntilMs: NOW + 60_000 };
      const ahead = { sendAfterMs: NOW + 30_000 };
      await one.enqueue(msg(1));
      const batch = [msg(1), msg(2), msg(3, held), msg(4, ahead), { ...msg(2), payload: { text: 'again' } }];
      expect(await many.enqueueMany(batch)).toBe(3);
      expect(await many.enqueueMany([])).toBe(0);
      // What enqueue writes of the same messages, under other keys.
      const rekeyed = (m: NewOutboxMessage) => ({ ...m, dedupeKey: `${m.dedupeKey}:alone` });
      for (const m of batch.slice(1, 4)) await one.enqueue(rekeyed(m));
      for (const m of batch.slice(1, 4)) {
        const { id: _a, dedupeKey: _k, ...written } = (await many.getByDedupeKey(m.dedupeKey))!;
        const { id: _b, dedupeKey: _l, ...alone } = (await one.getByDedupeKey(rekeyed(m).dedupeKey))!;
        expect(written).toEqual(alone);
      }
      expect((await many.getByDedupeKey(msg(2).dedupeKey))?.payload).toEqual(msg(2).payload);
      expect(await many.counts()).toMatchObject({ pending: 5, held: 2 });
    });

    it('a duplicate of an already sent message is still a no-op', async () => {
      const outbox = repoOn(backend());
      const { id } = await outbox.enqueue(msg(1));
      await outbox.claimDue(NOW, 10);
      await outbox.markSent(id, '1700000000.000100', NOW + 1);
      expect((await outbox.enqueue(msg(1))).created).toBe(false);
      expect(await outbox.claimDue(NOW + 10, 10)).toEqual([]);
    });

    it('claims due rows in order with a lease, and sent rows stay sent', async () => {
      const outbox = repoOn(backend());
      await outbox.enqueue(msg(1));
      await outbox.enqueue(msg(2, { nowMs: NOW + 5000 }));
      await outbox.enqueue(msg(3));
      const claimed = await outbox.claimDue(NOW, 10, { leaseMs: 30_000 });
      expect(claimed.map((r) => r.payload.text)).toEqual(['alert 1', 'alert 3']);
      expect(claimed[0]).toMatchObject({
        status: 'sending',
        attempts: 1,
        leaseOwner: 'me',
        leaseUntilMs: NOW + 30_000,
      });
      expect(await outbox.claimDue(NOW, 10)).toEqual([]);
      expect(await outbox.markSent(claimed[0]!.id, '123.456', NOW + 1)).toBe(true);
      expect(await outbox.get(claimed[0]!.id)).toMatchObject({
        status: 'sent',
        slackTs: '123.456',
        sentAtMs: NOW + 1,
        leaseOwner: null,
      });
      expect((await outbox.claimDue(NOW + 5000, 1)).map((r) => r.payload.text)).toEqual(['alert 2']);
      expect(await outbox.claimDue(NOW + 5000, 0)).toEqual([]);
    });

    it('claims with the repository’s own owner and a 60 s lease by default', async () => {
      const outbox = repoOn(backend(), 'replica-a');
      await outbox.enqueue(msg(1));
      expect(outbox.owner).toBe('replica-a');
      expect((await outbox.claimDue(NOW, 1))[0]).toMatchObject({
        leaseOwner: 'replica-a',
        leaseUntilMs: NOW + 60_000,
      });
    });

    it('retry puts a row back for later; failure is final', async () => {
      const outbox = repoOn(backend());
      const { id } = await outbox.enqueue(msg(1));
      await outbox.claimDue(NOW, 1);
      expect(await outbox.markRetry(id, 'ratelimited', NOW + 60_000)).toBe(true);
      expect(await outbox.get(id)).toMatchObject({
        status: 'pending',
        lastError: 'ratelimited',
        nextAttemptAtMs: NOW + 60_000,
      });
      expect(await outbox.nextPendingAt()).toBe(NOW + 60_000);
      expect(await outbox.claimDue(NOW + 59_999, 1)).toEqual([]);
      const again = await outbox.claimDue(NOW + 60_000, 1);
      expect(again[0]!.attempts).toBe(2);
      expect(await outbox.markFailed(id, 'channel_not_found')).toBe(true);
      expect(await outbox.get(id)).toMatchObject({ status: 'failed', lastError: 'channel_not_found' });
      expect(await outbox.claimDue(NOW + 1e9, 1)).toEqual([]);
      expect(await outbox.markRetry(id, 'x', 0)).toBe(false);
      expect(await outbox.nextPendingAt()).toBeNull();
    });

    it('held rows wait for their hold to end, then are released', async () => {
      const outbox = repoOn(backend());
      const { id } = await outbox.enqueue(msg(1, { holdUntilMs: NOW + 1000 }));
      await outbox.enqueue(msg(2, { holdUntilMs: NOW - 1 }));
      expect(await outbox.get(id)).toMatchObject({ status: 'held', holdUntilMs: NOW + 1000 });
      expect((await outbox.listHeld('C1')).map((r) => r.id)).toEqual([id]);
      expect(await outbox.listHeld('C2')).toEqual([]);
      expect((await outbox.claimDue(NOW + 5000, 10)).map((r) => r.payload.text)).toEqual(['alert 2']);
      expect(await outbox.releaseHeld(NOW + 999)).toBe(0);
      expect(await outbox.releaseHeld(NOW + 1000)).toBe(1);
      expect((await outbox.claimDue(NOW + 1000, 10)).map((r) => r.id)).toEqual([id]);
    });

    it('a released row is due when its hold ends, not before', async () => {
      const outbox = repoOn(backend());
      const { id } = await outbox.enqueue(msg(1, { holdUntilMs: NOW + 1000 }));
      // Unmuted: the hold is moved to now and the row goes at the next drain.
      expect(await outbox.rehold(id, NOW + 10)).toBe(true);
      expect(await outbox.rehold(999_999, NOW)).toBe(false);
      expect(await outbox.releaseHeld(NOW + 10)).toBe(1);
      expect(await outbox.get(id)).toMatchObject({ status: 'pending', nextAttemptAtMs: NOW + 10 });
      expect(await outbox.rehold(id, NOW)).toBe(false);
    });

    it('lists held rows of every channel by the end of their hold', async () => {
      const outbox = repoOn(backend());
      const late = (await outbox.enqueue(msg(1, { holdUntilMs: NOW + 2000 }))).id;
      const early = (await outbox.enqueue(msg(2, { channelId: 'C2', holdUntilMs: NOW + 1000 }))).id;
      expect((await outbox.listHeld()).map((r) => r.id)).toEqual([early, late]);
    });

    it('a claimed row can be held again when a mute began meanwhile', async () => {
      const outbox = repoOn(backend());
      const { id } = await outbox.enqueue(msg(1));
      await outbox.claimDue(NOW, 1);
      expect(await outbox.hold(id, NOW + 100)).toBe(true);
      expect(await outbox.get(id)).toMatchObject({ status: 'held', attempts: 0, leaseOwner: null });
      await outbox.releaseHeld(NOW + 100);
      expect(await outbox.claimDue(NOW + 100, 1)).toHaveLength(1);
    });

    it('a held row delivered inside a grouped message is sent without a ts of its own', async () => {
      const outbox = repoOn(backend());
      const carrier = (await outbox.enqueue(msg(1))).id;
      const held = (await outbox.enqueue(msg(2, { holdUntilMs: NOW + 1000 }))).id;
      expect(await outbox.markMerged(held, carrier, NOW + 5)).toBe(true);
      expect(await outbox.get(held)).toMatchObject({
        status: 'sent',
        slackTs: null,
        sentAtMs: NOW + 5,
        lastError: `merged into #${carrier}`,
      });
      expect(await outbox.markMerged(held, carrier, NOW + 6)).toBe(false);
    });

    it('rows a crashed process left in sending are listed for recovery, then requeued or marked sent', async () => {
      const outbox = repoOn(backend());
      const a = (await outbox.enqueue(msg(1))).id;
      const b = (await outbox.enqueue(msg(2))).id;
      await outbox.claimDue(NOW, 10, { leaseMs: 1000 });
      expect(await outbox.listSending(NOW + 999)).toEqual([]);
      expect((await outbox.listSending(NOW + 1000)).map((r) => r.id)).toEqual([a, b]);
      expect((await outbox.listSending()).map((r) => r.id)).toEqual([a, b]);
      // The relay found a's metadata in the channel history, b's not.
      await outbox.markSent(a, '1.2', NOW + 2000);
      expect(await outbox.requeue(b, NOW + 2000)).toBe(true);
      expect(await outbox.requeue(b, NOW + 2000)).toBe(false);
      expect(await outbox.get(b)).toMatchObject({ status: 'pending', attempts: 0, leaseOwner: null });
      expect((await outbox.claimDue(NOW + 2000, 10)).map((r) => r.id)).toEqual([b]);
    });

    it('records a chart upload’s file id only while the row is being sent', async () => {
      const outbox = repoOn(backend());
      const { id } = await outbox.enqueue({ ...msg(1), kind: 'chart' });
      expect(await outbox.recordUpload(id, 'F1')).toBe(false);
      await outbox.claimDue(NOW, 1);
      expect(await outbox.recordUpload(id, 'F2')).toBe(true);
      expect(await outbox.get(id)).toMatchObject({ kind: 'chart', uploadFileId: 'F2' });
    });

    it('counts by status, keeps errors short, purges finished rows', async () => {
      const outbox = repoOn(backend());
      const ids: number[] = [];
      for (const n of [1, 2, 3]) ids.push((await outbox.enqueue(msg(n))).id);
      await outbox.enqueue(msg(4, { holdUntilMs: NOW + 1 }));
      await outbox.claimDue(NOW, 2);
      await outbox.markSent(ids[0]!, '1.1', NOW);
      await outbox.markFailed(ids[1]!, 'e'.repeat(5000));
      expect((await outbox.get(ids[1]!))!.lastError).toHaveLength(1000);
      expect(await outbox.counts()).toEqual({ pending: 1, held: 1, sending: 0, sent: 1, failed: 1 });
      expect(await outbox.purgeFinished(NOW + 1)).toBe(2);
      expect(await outbox.getByDedupeKey(msg(1).dedupeKey)).toBeNull();
      expect((await outbox.getByDedupeKey(msg(3).dedupeKey))!.id).toBe(ids[2]);
      expect(await outbox.get(ids[0]!)).toBeNull();
    });

    it('a NUL in text from the API or a user does not make a write fail', async () => {
      const outbox = repoOn(backend());
      const text = 'Brand\u0000 lost a citation';
      const { id } = await outbox.enqueue(
        msg(1, {
          brandId: 'b\u00001',
          payload: {
            text,
            blocks: [{ type: 'header', text: { type: 'plain_text', text } }],
            metadata: {
              event_type: 'visibility_alert',
              event_payload: { 'k\u0000': 'v\u0000', path: '\\u0000', both: '\\\u0000' },
            },
          },
        }),
      );
      await outbox.claimDue(NOW, 1);
      expect(await outbox.markRetry(id, 'upstream said \u0000', NOW)).toBe(true);
      // SQLite keeps the NUL; Postgres keeps U+FFFD in its place. Either way nothing else changes.
      const kept = withoutNul(await outbox.get(id));
      expect(kept).toMatchObject({
        brandId: 'b\uFFFD1',
        lastError: 'upstream said \uFFFD',
        payload: {
          text: 'Brand\uFFFD lost a citation',
          blocks: [{ type: 'header', text: { type: 'plain_text', text: 'Brand\uFFFD lost a citation' } }],
          metadata: { event_payload: { 'k\uFFFD': 'v\uFFFD', path: '\\u0000', both: '\\\uFFFD' } },
        },
      });
    });
  });

  describe('rows written ahead of their time', () => {
    it('are not claimed a millisecond before their time, and are claimed at it', async () => {
      const outbox = repoOn(backend());
      const { id } = await outbox.enqueue(digest('C1', 1, { sendAfterMs: AT }));
      expect(await outbox.get(id)).toMatchObject({ status: 'pending', sendAfterMs: AT });
      expect(await outbox.nextPendingAt()).toBe(AT);
      expect(await outbox.countScheduled(NOW)).toBe(1);
      expect(await outbox.hasDigestDue('C1', AT - 1)).toBe(false);
      expect(await outbox.claimDue(NOW, 10)).toEqual([]);
      expect(await outbox.claimDue(AT - 1, 10)).toEqual([]);
      expect(await outbox.hasDigestDue('C1', AT)).toBe(true);
      expect((await outbox.claimDue(AT, 10)).map((r) => r.id)).toEqual([id]);
      expect(await outbox.countScheduled(NOW)).toBe(0);
    });

    it('a send-after time already past is no floor', async () => {
      const outbox = repoOn(backend());
      const { id } = await outbox.enqueue(digest('C1', 1, { sendAfterMs: NOW - 1 }));
      expect((await outbox.get(id))!.sendAfterMs).toBeNull();
      expect((await outbox.claimDue(NOW, 10)).map((r) => r.id)).toEqual([id]);
    });

    it('sendNow makes a row written ahead due at once, and only such a row', async () => {
      const outbox = repoOn(backend());
      const ahead = await outbox.enqueue(digest('C1', 1, { sendAfterMs: AT }));
      const plain = await outbox.enqueue(digest('C1', 2));
      expect(await outbox.sendNow(digest('C1', 2).dedupeKey, NOW)).toBe(false);
      expect(await outbox.sendNow(digest('C1', 1).dedupeKey, NOW + 10)).toBe(true);
      expect(await outbox.nextPendingAt()).toBe(NOW);
      expect((await outbox.claimDue(NOW + 10, 10)).map((r) => r.id).sort()).toEqual(
        [ahead.id, plain.id].sort(),
      );
      // Claimed: no longer pending, so sendNow has nothing to move.
      expect(await outbox.sendNow(digest('C1', 1).dedupeKey, NOW + 20)).toBe(false);
    });

    it('a digest being sent still counts as due for its channel, a sent one does not', async () => {
      const outbox = repoOn(backend());
      const { id } = await outbox.enqueue(digest('C1', 1));
      await outbox.enqueue(msg(1, { channelId: 'C2' }));
      expect(await outbox.hasDigestDue('C2', NOW)).toBe(false);
      await outbox.claimDue(NOW, 1);
      expect(await outbox.hasDigestDue('C1', NOW)).toBe(true);
      await outbox.markSent(id, '1.1', NOW);
      expect(await outbox.hasDigestDue('C1', NOW)).toBe(false);
    });

    it('with perChannel 1 a claim takes the oldest row of each channel, in order', async () => {
      const outbox = repoOn(backend());
      for (let n = 1; n <= 3; n += 1) await outbox.enqueue(digest('CBUSY', n));
      await outbox.enqueue(digest('CQUIET', 9));
      const first = await outbox.claimDue(NOW, 2, { perChannel: 1 });
      expect(first.map((r) => r.payload.text)).toEqual(['digest CBUSY 1', 'digest CQUIET 9']);
      expect((await outbox.claimDue(NOW, 2, { perChannel: 1 })).map((r) => r.payload.text)).toEqual([
        'digest CBUSY 2',
      ]);
      // Without a cap, one channel's rows fill the batch as before.
      expect((await outbox.claimDue(NOW, 5)).map((r) => r.payload.text)).toEqual(['digest CBUSY 3']);
    });
  });

  describe('several processes or replicas on one database', () => {
    it('two connections claiming in turn never get the same row', async () => {
      const outbox = repoOn(backend());
      const other = repoOn(backend().other(), 'other');
      for (let i = 0; i < 200; i++) await outbox.enqueue(msg(i));
      const mine: number[] = [];
      const theirs: number[] = [];
      for (;;) {
        const a = await outbox.claimDue(NOW, 7);
        const b = await other.claimDue(NOW, 5);
        mine.push(...a.map((r) => r.id));
        theirs.push(...b.map((r) => r.id));
        if (a.length === 0 && b.length === 0) break;
      }
      expect(new Set([...mine, ...theirs]).size).toBe(200);
      expect(mine.filter((id) => theirs.includes(id))).toEqual([]);
      expect(
        (await outbox.listSending()).every((r) =>
          mine.includes(r.id) ? r.leaseOwner === 'me' : r.leaseOwner === 'other',
        ),
      ).toBe(true);
    });

    it('four connections claiming at the same time claim every row exactly once', async () => {
      const first = repoOn(backend());
      const rows: NewOutboxMessage[] = [];
      for (let i = 0; i < 400; i++) rows.push(msg(i, { channelId: `C${i % 20}` }));
      await backend().transaction(async () => {
        for (const r of rows) await first.enqueue(r);
      });
      const replicas = ['w1', 'w2', 'w3', 'w4'].map((owner) => repoOn(backend().other(), owner));
      const claims = await Promise.all(
        replicas.map(async (replica) => {
          const mine: number[] = [];
          for (;;) {
            const got = await replica.claimDue(NOW, 3, { perChannel: 1 });
            if (got.length === 0) {
              // Another replica may still hold rows it has not committed yet.
              if ((await replica.counts()).pending === 0) return mine;
              continue;
            }
            mine.push(...got.map((r) => r.id));
          }
        }),
      );
      const all = claims.flat();
      expect(all).toHaveLength(400);
      expect(new Set(all).size).toBe(400);
      const sending = await first.listSending();
      expect(sending).toHaveLength(400);
      for (const [i, owner] of ['w1', 'w2', 'w3', 'w4'].entries()) {
        const ids = new Set(claims[i]);
        expect(sending.filter((r) => ids.has(r.id)).every((r) => r.leaseOwner === owner)).toBe(true);
      }
    }, 60_000);

    it('two connections enqueueing the same message at once make one row', async () => {
      const repos = [backend(), backend().other(), backend().other()].map((b) => repoOn(b));
      const results = await Promise.all(repos.map((r) => r.enqueue(msg(7))));
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(new Set(results.map((r) => r.id)).size).toBe(1);
      expect((await repos[0]!.counts()).pending).toBe(1);
    });

    it('a row another connection claimed and finished is not claimed again', async () => {
      const a = repoOn(backend(), 'a');
      const b = repoOn(backend().other(), 'b');
      const { id } = await a.enqueue(msg(1));
      expect((await b.claimDue(NOW, 5)).map((r) => r.id)).toEqual([id]);
      expect(await a.claimDue(NOW, 5)).toEqual([]);
      expect(await b.markSent(id, '9.9', NOW + 1)).toBe(true);
      expect(await a.get(id)).toMatchObject({ status: 'sent', slackTs: '9.9' });
      expect(await a.claimDue(NOW + 1e6, 5)).toEqual([]);
    });
  });

  describe('transactions', () => {
    it('a row enqueued in a transaction that fails is not there', async () => {
      const b = backend();
      const outbox = repoOn(b);
      await expect(
        b.transaction(async () => {
          await outbox.enqueue(msg(1));
          expect(await outbox.getByDedupeKey(msg(1).dedupeKey)).not.toBeNull();
          throw new Error('the detector failed');
        }),
      ).rejects.toThrow('the detector failed');
      expect(await outbox.getByDedupeKey(msg(1).dedupeKey)).toBeNull();
      expect(await outbox.counts()).toEqual({ pending: 0, held: 0, sending: 0, sent: 0, failed: 0 });
      expect((await outbox.enqueue(msg(1))).created).toBe(true);
    });

    it('a claim in a transaction that fails leaves the row pending for the next claim', async () => {
      const b = backend();
      const outbox = repoOn(b);
      const { id } = await outbox.enqueue(msg(1));
      await expect(
        b.transaction(async () => {
          expect(await outbox.claimDue(NOW, 5)).toHaveLength(1);
          throw new Error('crashed before commit');
        }),
      ).rejects.toThrow('crashed before commit');
      expect(await outbox.get(id)).toMatchObject({ status: 'pending', attempts: 0, leaseOwner: null });
      expect((await repoOn(b.other(), 'other').claimDue(NOW, 5)).map((r) => r.id)).toEqual([id]);
    });

    it('a row enqueued in a transaction that commits is there for other connections', async () => {
      const b = backend();
      const outbox = repoOn(b);
      await b.transaction(async () => {
        await outbox.enqueue(msg(1));
        await outbox.enqueue(msg(2));
      });
      expect((await repoOn(b.other()).counts()).pending).toBe(2);
    });
  });
});
