/**
 * The read-only alert history the App Home shows, on both backends: the newest alert
 * messages per brand with their delivery state and kinds (merged rows, digests and other
 * brands left out), and the Acknowledge clicks the audit log kept, matched to posted
 * messages by channel and ts.
 */
import { expect, it } from 'vitest';
import type { AlertHistoryQueries } from '../../../src/store/alert-history-queries.js';
import type { AuditEntry } from '../../../src/store/audit-log.js';
import type { NewOutboxMessage, OutboxChart, OutboxRepo } from '../../../src/store/outbox-repo.js';
import { describeBackends, type TestBackend } from './store-backends.js';

const queriesOn = (b: TestBackend): AlertHistoryQueries => b.store().alertHistory;
const outboxOn = (b: TestBackend): OutboxRepo => b.store().outbox({ owner: 'me' });

/** An audit entry, written by the backend's audit log. */
const audit = (b: TestBackend, e: AuditEntry): Promise<void> => b.store().auditLog.record(e);

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

describeBackends('alert history queries', (backend) => {
  it('returns the newest alert messages per brand with their state, leaving out merged rows and digests', async () => {
    const outbox = outboxOn(backend());
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

    // Another connection: a dashboard replica reads what the delivering one wrote.
    const q = queriesOn(backend().other());
    const rows = await q.recentAlerts(['b2', 'b1'], 3);
    expect(rows).toHaveLength(4);
    // Grouped by brand (in brand order), newest first within each.
    expect(rows.map((r) => r.brandId)).toEqual(['b1', 'b1', 'b1', 'b2']);
    const b1 = rows.filter((r) => r.brandId === 'b1');
    // Newest first: 5, 4, 2 (3 was merged into 1; 1 is older than the three kept).
    expect(b1.map((r) => r.createdAtMs)).toEqual([NOW + 5, NOW + 4, NOW + 2]);
    expect(b1[2]).toMatchObject({ status: 'held', holdUntilMs: NOW + 5_000, alertCount: 2 });
    expect(rows.find((r) => r.brandId === 'b2')).toMatchObject({ channelId: 'C2', status: 'pending' });

    const all = await q.recentAlerts(['b1'], 10);
    expect(all.find((r) => r.id === sent)).toEqual({
      id: sent,
      channelId: 'C1',
      brandId: 'b1',
      status: 'sent',
      holdUntilMs: null,
      createdAtMs: NOW + 1,
      sentAtMs: NOW + 20,
      slackTs: '111.222',
      alertCount: 2,
      kinds: ['citation_lost', 'citation_competitor'],
      headline: null,
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
    expect(await q.recentAlerts(['b1'], 0)).toEqual([]);
  });

  it('orders brands by their ids byte by byte, whatever the database locale', async () => {
    const outbox = outboxOn(backend());
    await outbox.enqueue(alert(1, { brandId: 'a1' }));
    await outbox.enqueue(alert(2, { brandId: 'B9' }));
    await outbox.enqueue(alert(3, { brandId: 'a1' }));
    const rows = await queriesOn(backend()).recentAlerts(['a1', 'B9'], 5);
    expect(rows.map((r) => [r.brandId, r.createdAtMs])).toEqual([
      ['B9', NOW + 2],
      ['a1', NOW + 3],
      ['a1', NOW + 1],
    ]);
  });

  it('takes what metadata of the wrong type says as absent', async () => {
    const outbox = outboxOn(backend());
    await outbox.enqueue({
      ...alert(1),
      payload: {
        text: 'odd',
        blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'not a header' } }],
        metadata: { event_type: 'visibility_alert', event_payload: { alert_count: '3', kinds: 7 } },
      },
    });
    await outbox.enqueue({
      ...alert(2),
      payload: { text: 'odd 2', blocks: [{ type: 'header', text: { type: 'plain_text', text: 12 } }] },
    });
    const rows = await queriesOn(backend()).recentAlerts(['b1'], 5);
    expect(rows.map((r) => [r.alertCount, r.kinds, r.headline])).toEqual([
      [0, [], null],
      [0, [], null],
    ]);
  });

  it('reads who acknowledged which message from the audit log, refusals and other actions left out', async () => {
    const b = backend();
    const ack = (
      userId: string,
      atMs: number,
      result = 'ok',
      action = 'alert.acknowledge',
      messageTs: unknown = '111.222',
    ) =>
      audit(b, {
        atMs,
        userId,
        channelId: 'C1',
        brandId: 'b1',
        action,
        detail: { messageTs, alertKey: 'k' },
        result,
      });
    await ack('U1', NOW - 10);
    await ack('U2', NOW + 1);
    await ack('U3', NOW + 2, 'error: message_not_found');
    await ack('U4', NOW + 3, 'ok', 'alert.snooze');
    await ack('U5', NOW + 4);
    // An entry without a message ts (or not a string) matches no message.
    await ack('U6', NOW + 5, 'ok', 'alert.acknowledge', 111.222);
    await ack('U7', NOW + 6, 'ok', 'alert.acknowledge', null);
    const q = queriesOn(b);
    expect(await q.acknowledgementsSince(NOW)).toEqual([
      { channelId: 'C1', messageTs: '111.222', userId: 'U2', atMs: NOW + 1 },
      { channelId: 'C1', messageTs: '111.222', userId: 'U5', atMs: NOW + 4 },
    ]);
  });

  it('inside a transaction sees its own uncommitted alert; after a rollback it is gone', async () => {
    const b = backend();
    const outbox = outboxOn(b);
    const q = queriesOn(b);
    await expect(
      b.transaction(async () => {
        await outbox.enqueue(alert(1));
        expect((await q.recentAlerts(['b1'], 5)).map((r) => r.createdAtMs)).toEqual([NOW + 1]);
        throw new Error('the job failed');
      }),
    ).rejects.toThrow('the job failed');
    expect(await q.recentAlerts(['b1'], 5)).toEqual([]);
  });

  it("reads each brand's newest digest chart figures, leaving out brands without a chart row", async () => {
    const b = backend();
    const outbox = outboxOn(b);
    const chartRow = (brandId: string, n: number, chart: object): NewOutboxMessage => ({
      dedupeKey: `chart:${brandId}:${n}`,
      channelId: 'C1',
      brandId,
      kind: 'chart',
      payload: { text: 'chart', chart: chart as OutboxChart },
      nowMs: NOW + n,
    });
    const week = [{ date: '2025-03-01', value: 3 }];
    await outbox.enqueue(chartRow('b1', 1, { citations: [{ date: '2025-02-28', value: 1 }] }));
    await outbox.enqueue(chartRow('b1', 2, { citations: week, crawlerVisits: null }));
    await outbox.enqueue(chartRow('b2', 3, { crawlerVisits: week }));
    await outbox.enqueue(alert(4, { brandId: 'b3' }));
    await outbox.enqueue(chartRow('b4', 5, { citations: week }));
    const rows = await queriesOn(b).latestDigestCharts(['b1', 'b2', 'b3']);
    expect(rows.sort((x, y) => x.brandId.localeCompare(y.brandId))).toEqual([
      { brandId: 'b1', createdAtMs: NOW + 2, chart: { citations: week, crawlerVisits: null } },
      { brandId: 'b2', createdAtMs: NOW + 3, chart: { crawlerVisits: week } },
    ]);
    expect(await queriesOn(b).latestDigestCharts([])).toEqual([]);
    // A weekly summary's chart, written later, covers another week: the daily one stands.
    await outbox.enqueue({
      ...chartRow('b1', 6, { citations: [] }),
      dedupeKey: 'chart:weekly:b1:2025-03-03',
    });
    const daily = await queriesOn(b).latestDigestCharts(['b1'], 'weekly:');
    expect(daily.map((r) => r.createdAtMs)).toEqual([NOW + 2]);
  });
});

describeBackends('alert history queries: one channel and brand over a week', (backend) => {
  it('lists the alert messages written between two times, leaving out merged, failed, other channels and brands', async () => {
    const outbox = outboxOn(backend());
    const sent = (await outbox.enqueue(alert(1, {}, 'citation_lost,crawler_drop'))).id;
    await outbox.claimDue(NOW + 10, 10);
    await outbox.markSent(sent, '111.222', NOW + 20);
    const merged = (await outbox.enqueue(alert(2, { holdUntilMs: NOW + 5_000 }))).id;
    await outbox.markMerged(merged, sent, NOW + 30);
    await outbox.enqueue(alert(3));
    const failed = (await outbox.enqueue(alert(4))).id;
    await outbox.claimDue(NOW + 40, 10);
    await outbox.markFailed(failed, 'channel_not_found');
    await outbox.enqueue(alert(5, { channelId: 'C2' }));
    await outbox.enqueue(alert(6, { brandId: 'b2' }));
    await outbox.enqueue({ ...alert(7), kind: 'digest' });
    await outbox.enqueue(alert(50));

    const q = queriesOn(backend().other());
    const rows = await q.channelAlertsBetween('C1', 'b1', NOW + 1, NOW + 50);
    expect(rows.map((r) => [r.createdAtMs, r.alertCount, r.kinds, r.slackTs])).toEqual([
      [NOW + 1, 2, ['citation_lost', 'crawler_drop'], '111.222'],
      [NOW + 3, 2, ['crawler_drop'], null],
    ]);
    expect(await q.channelAlertsBetween('C1', 'b1', NOW + 2, NOW + 3)).toEqual([]);
  });
});
