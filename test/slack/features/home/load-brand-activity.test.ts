/**
 * The App Home's reading of the bot's own database: an acknowledgement belongs to the
 * message clicked (channel and ts), a snooze to the kinds and channel it names and only
 * while it runs, and a held message says whether a mute, a snooze or quiet hours hold it.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_SETTINGS } from '../../../../src/alerts/alert-settings.js';
import { loadBrandActivity } from '../../../../src/slack/features/home/load-brand-activity.js';
import { createSqliteStore } from '../../../../src/store/create-sqlite-store.js';
import type { NewOutboxMessage } from '../../../../src/store/outbox-repo.js';
import { useTempOutbox } from '../../../store/temp-db.js';

const ctx = useTempOutbox();
const NOW = Date.UTC(2031, 0, 15, 12);
const HOUR = 3_600_000;

const alert = (key: string, channelId: string, kinds: string, extra: Partial<NewOutboxMessage> = {}) => ({
  dedupeKey: key,
  channelId,
  brandId: 'b1',
  kind: 'alert' as const,
  payload: {
    text: key,
    metadata: { event_type: 'visibility_alert', event_payload: { alert_count: 1, kinds } },
  },
  nowMs: NOW - HOUR,
  ...extra,
});

describe('loadBrandActivity', () => {
  it('matches acknowledgements to their message and snoozes to their kind and channel', async () => {
    const { outbox, t } = ctx;
    const subs = createSqliteStore(t.db).subscriptions;
    await subs.upsert({
      channelId: 'C1',
      brandId: 'b1',
      brandName: 'B',
      createdBy: 'U1',
      createdAtMs: NOW - 2 * HOUR,
    });
    await subs.upsert({
      channelId: 'C2',
      brandId: 'b1',
      brandName: 'B',
      settings: { ...DEFAULT_ALERT_SETTINGS, quietHours: { start: '22:00', end: '07:00' } },
      createdBy: 'U1',
      createdAtMs: NOW - 2 * HOUR,
    });
    await subs.setMutedUntil('C1', 'b1', null);
    await subs.upsert({
      channelId: 'C3',
      brandId: 'other',
      brandName: 'O',
      createdBy: 'U1',
      createdAtMs: NOW,
    });

    const a = (await outbox.enqueue(alert('a', 'C1', 'crawler_drop'))).id;
    const b = (await outbox.enqueue(alert('b', 'C1', 'citation_lost'))).id;
    await outbox.claimDue(NOW - HOUR, 10);
    await outbox.markSent(a, '1.1', NOW - HOUR);
    await outbox.markSent(b, '1.2', NOW - HOUR);
    await outbox.enqueue(alert('c', 'C2', 'crawler_drop', { holdUntilMs: NOW + HOUR }));

    const audit = createSqliteStore(t.db).auditLog;
    const ack = (userId: string, channelId: string, messageTs: string) =>
      audit.record({
        atMs: NOW - HOUR / 2,
        userId,
        channelId,
        brandId: 'b1',
        action: 'alert.acknowledge',
        detail: { messageTs, alertKey: 'k' },
        result: 'ok',
      });
    await ack('U7', 'C1', '1.1');
    await ack('U8', 'C1', '1.1');
    await ack('U7', 'C1', '1.1');
    await ack('U9', 'C2', '1.2');

    const snoozes = createSqliteStore(t.db).snoozes;
    await snoozes.snooze({
      channelId: 'C1',
      brandId: 'b1',
      kind: 'crawler_drop',
      untilMs: NOW + 5 * HOUR,
      createdBy: 'U8',
      createdAtMs: NOW,
    });
    await snoozes.snooze({
      channelId: 'C2',
      brandId: 'b1',
      kind: 'citation_lost',
      untilMs: NOW + 5 * HOUR,
      createdBy: 'U8',
      createdAtMs: NOW,
    });
    await snoozes.snooze({
      channelId: 'C1',
      brandId: 'b1',
      kind: 'citation_lost',
      untilMs: NOW - 1,
      createdBy: 'U8',
      createdAtMs: NOW - HOUR,
    });

    const activity = (await loadBrandActivity(t.store, ['b1'], NOW)).get('b1')!;
    expect(activity.subscriptions.map((s) => s.channelId)).toEqual(['C1', 'C2']);
    const byKind = (channelId: string, kind: string) =>
      activity.alerts.find((x) => x.channelId === channelId && x.kinds.includes(kind))!;
    // Acknowledged twice by U7 and once by U8: each person once, the latest last.
    expect(byKind('C1', 'crawler_drop')).toMatchObject({
      status: 'sent',
      acknowledgedBy: ['U8', 'U7'],
      snoozedUntilMs: NOW + 5 * HOUR,
      snoozedBy: 'U8',
      holdReason: null,
    });
    // U9 clicked a message with the same ts in another channel; the snooze here had ended.
    expect(byKind('C1', 'citation_lost')).toMatchObject({ acknowledgedBy: [], snoozedUntilMs: null });
    expect(byKind('C2', 'crawler_drop')).toMatchObject({
      status: 'held',
      holdUntilMs: NOW + HOUR,
      holdReason: 'quiet_hours',
      snoozedUntilMs: null,
    });

    await subs.setMutedUntil('C2', 'b1', NOW + HOUR);
    expect(
      (await loadBrandActivity(t.store, ['b1'], NOW)).get('b1')!.alerts.find((x) => x.channelId === 'C2'),
    ).toMatchObject({
      holdReason: 'mute',
    });
    expect((await loadBrandActivity(t.store, ['nobody'], NOW)).size).toBe(0);
  });
});
