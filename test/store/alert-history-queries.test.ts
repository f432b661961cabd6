/**
 * The read-only alert history the App Home shows: the newest alert messages per brand with
 * their delivery state and kinds (merged rows, digests and other brands left out), and the
 * Acknowledge clicks the audit log kept, matched to posted messages by channel and ts.
 */
import { describe, expect, it } from 'vitest';
import { createAlertHistoryQueries } from '../../src/store/alert-history-queries.js';
import { createAuditLog } from '../../src/store/audit-log.js';
import type { NewOutboxMessage } from '../../src/store/outbox-repo.js';
import { useTempOutbox } from './temp-db.js';

const ctx = useTempOutbox();
const NOW = 1_000_000;

const alert = (
  n: number,
  extra: Partial<NewOutboxMessage> = {},
  kinds = 'crawler_drop',
): NewOutboxMessage => ({
  dedupeKey: `key${n}`,
  channelId: 'C1',
  brandId: 'b1',
  kind: 'alert',
  payload: {
    text: `alert ${n}`,
    metadata: { event_type: 'visibility_alert', event_payload: { alert_count: 2, kinds } },
  },
  nowMs: NOW + n,
  ...extra,
});

describe('alert history queries', () => {
  it('returns the newest alert messages per brand with their state, leaving out merged rows and digests', async () => {
    const { outbox, t } = ctx;
    const sent = (await outbox.enqueue(alert(1, {}, 'citation_lost,citation_competitor'))).id;
    await outbox.claimDue(NOW + 10, 10);
    await outbox.markSent(sent, '111.222', NOW + 20);
    await outbox.enqueue(alert(2, { holdUntilMs: NOW + 5_000 }));
    const merged = (await outbox.enqueue(alert(3, { holdUntilMs: NOW + 5_000 }))).id;
    await outbox.markMerged(merged, sent, NOW + 30);
    await outbox.enqueue(alert(4));
    await outbox.enqueue(alert(5));
    await outbox.enqueue(alert(6, { brandId: 'b2', channelId: 'C2' }));
    await outbox.enqueue(alert(7, { brandId: 'b3' }));
    await outbox.enqueue({ ...alert(8), kind: 'digest' });

    const q = createAlertHistoryQueries(t.db);
    const rows = await q.recentAlerts(['b1', 'b2'], 3);
    expect(rows).toHaveLength(4);
    const b1 = rows.filter((r) => r.brandId === 'b1');
    // Newest first: 5, 4, 2 (3 was merged into 1; 1 is older than the three kept).
    expect(b1.map((r) => r.createdAtMs)).toEqual([NOW + 5, NOW + 4, NOW + 2]);
    expect(b1[2]).toMatchObject({ status: 'held', holdUntilMs: NOW + 5_000, alertCount: 2 });
    expect(rows.find((r) => r.brandId === 'b2')).toMatchObject({ channelId: 'C2', status: 'pending' });

    const all = await q.recentAlerts(['b1'], 10);
    expect(all.find((r) => r.id === sent)).toMatchObject({
      status: 'sent',
      slackTs: '111.222',
      sentAtMs: NOW + 20,
      kinds: ['citation_lost', 'citation_competitor'],
    });
    expect(all.some((r) => r.id === merged)).toBe(false);

    // A message without our metadata (an older build's) still lists, with what it has.
    const bare = (
      await outbox.enqueue({
        ...alert(9),
        payload: {
          text: 'x',
          blocks: [{ type: 'header', text: { type: 'plain_text', text: 'B: Lost &lt;x&gt;' } }],
        },
      })
    ).id;
    expect((await q.recentAlerts(['b1'], 1))[0]).toMatchObject({
      id: bare,
      alertCount: 0,
      kinds: [],
      headline: 'B: Lost &lt;x&gt;',
    });
    expect(all[0]!.headline).toBeNull();
    expect(await q.recentAlerts([], 3)).toEqual([]);
  });

  it('reads who acknowledged which message from the audit log, refusals and other actions left out', async () => {
    const audit = createAuditLog(ctx.t.db);
    const ack = (userId: string, atMs: number, result = 'ok', action = 'alert.acknowledge') =>
      audit.record({
        atMs,
        userId,
        channelId: 'C1',
        brandId: 'b1',
        action,
        detail: { messageTs: '111.222', alertKey: 'k' },
        result,
      });
    await ack('U1', NOW - 10);
    await ack('U2', NOW + 1);
    await ack('U3', NOW + 2, 'error: message_not_found');
    await ack('U4', NOW + 3, 'ok', 'alert.snooze');
    await ack('U5', NOW + 4);
    const q = createAlertHistoryQueries(ctx.t.db);
    expect(await q.acknowledgementsSince(NOW)).toEqual([
      { channelId: 'C1', messageTs: '111.222', userId: 'U2', atMs: NOW + 1 },
      { channelId: 'C1', messageTs: '111.222', userId: 'U5', atMs: NOW + 4 },
    ]);
  });
});
