/**
 * The screen before a claimed row is posted: what a channel turned off, paused or muted
 * after the row was written is honoured, and the row says why in its last error.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_SETTINGS } from '../../../src/alerts/alert-settings.js';
import { weeklyKey } from '../../../src/alerts/weekly-due.js';
import { claimByChannel } from '../../../src/jobs/relay/claim-by-channel.js';
import { screenRow } from '../../../src/jobs/relay/screen-row.js';
import type { NewOutboxMessage, OutboxMessage } from '../../../src/store/outbox-repo.js';
import { ALERTS, useRelayFixture } from '../relay-fixture.js';

const f = useRelayFixture();

async function subscribe(o: { digest?: boolean; weekly?: boolean; digestChart?: boolean } = {}) {
  await f.subscriptions.upsert({
    channelId: ALERTS,
    brandId: 'brand-1',
    brandName: 'Acme',
    createdBy: 'U1',
    createdAtMs: f.clock.now(),
    digest: o.digest ?? true,
    settings: { ...DEFAULT_ALERT_SETTINGS, weekly: o.weekly ?? false, digestChart: o.digestChart ?? true },
  });
}

async function screened(m: Partial<NewOutboxMessage> & { dedupeKey: string }) {
  const ctx = f.context();
  await f.enqueue(m);
  const row = (await claimByChannel(ctx)).flat()[0] as OutboxMessage;
  const outcome = await screenRow(ctx, row, f.clock.now());
  return { outcome, row: await f.outbox.get(row.id), ctx };
}

describe('screenRow', () => {
  it('lets an alert of an active subscription through, untouched', async () => {
    await subscribe();
    const { outcome, row } = await screened({ dedupeKey: 'a1' });
    expect(outcome).toBeUndefined();
    expect(row).toMatchObject({ status: 'sending', lastError: null });
  });

  it('drops a row of a paused subscription, saying why', async () => {
    await subscribe();
    await f.subscriptions.pauseChannel(ALERTS, 'the channel was archived', f.clock.now());
    const { outcome, row } = await screened({ dedupeKey: 'a1' });
    expect(outcome).toBe('paused');
    expect(row).toMatchObject({
      status: 'failed',
      lastError: 'subscription paused: the channel was archived',
    });
  });

  it('drops a digest prepared ahead once the digest was turned off, and its chart with it', async () => {
    await subscribe({ digest: false });
    expect(await screened({ dedupeKey: 'd1', kind: 'digest' })).toMatchObject({
      outcome: 'paused',
      row: { status: 'failed', lastError: 'digest turned off before it was posted' },
    });
    expect(await screened({ dedupeKey: 'c1', kind: 'chart' })).toMatchObject({
      outcome: 'paused',
      row: { lastError: 'digest turned off before it was posted' },
    });
  });

  it('drops a digest chart once the chart was turned off, not the digest', async () => {
    await subscribe({ digestChart: false });
    expect((await screened({ dedupeKey: 'd1', kind: 'digest' })).outcome).toBeUndefined();
    expect(await screened({ dedupeKey: 'c1', kind: 'chart' })).toMatchObject({
      outcome: 'paused',
      row: { lastError: 'digest chart turned off before it was posted' },
    });
  });

  it('judges a weekly summary by weekly=, whatever the daily digest says', async () => {
    await subscribe({ digest: false, weekly: true });
    // Outbox keys are the channel's: `<channel>:weekly:…`.
    const key = `${ALERTS}:${weeklyKey('brand-1', '2025-03-10')}`;
    expect((await screened({ dedupeKey: key, kind: 'digest' })).outcome).toBeUndefined();
    await subscribe({ digest: true, weekly: false });
    expect(
      await screened({ dedupeKey: `${ALERTS}:${weeklyKey('brand-1', '2025-03-17')}`, kind: 'digest' }),
    ).toMatchObject({
      outcome: 'paused',
      row: { lastError: 'weekly summary turned off before it was posted' },
    });
  });

  it('holds an alert until a mute that began after it was written ends', async () => {
    await subscribe();
    const until = f.clock.now() + 3_600_000;
    await f.subscriptions.setMutedUntil(ALERTS, 'brand-1', until);
    expect(await screened({ dedupeKey: 'a1' })).toMatchObject({
      outcome: 'held',
      row: { status: 'held', holdUntilMs: until },
    });
    // A digest is not an alert: the mute does not hold it.
    expect((await screened({ dedupeKey: 'd1', kind: 'digest' })).outcome).toBeUndefined();
  });

  it('fails every further row of a channel found gone in this drain; an ops report counts as failed', async () => {
    const ctx = f.context();
    ctx.drain.gone.set(ALERTS, 'channel_not_found');
    await f.enqueue({ dedupeKey: 'a1' });
    await f.enqueue({ dedupeKey: 'o1', kind: 'ops', brandId: null });
    const [alert, ops] = (await claimByChannel(ctx)).flat() as [OutboxMessage, OutboxMessage];
    expect(await screenRow(ctx, alert, f.clock.now())).toBe('paused');
    expect(await screenRow(ctx, ops, f.clock.now())).toBe('failed');
    expect((await f.outbox.get(alert.id))?.lastError).toMatch(/^channel: /);
  });

  it('asks nothing of an ops report, which has no subscription', async () => {
    expect((await screened({ dedupeKey: 'o1', kind: 'ops', brandId: null })).outcome).toBeUndefined();
  });
});
