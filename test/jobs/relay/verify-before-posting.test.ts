/**
 * The check after an unknown outcome, on its own: a row whose last attempt may have landed
 * is looked for in the channel before it is posted again, and a chart row finds its
 * thread through the row it follows.
 */
import { describe, expect, it } from 'vitest';
import { chartThread } from '../../../src/jobs/relay/chart-thread.js';
import { claimByChannel } from '../../../src/jobs/relay/claim-by-channel.js';
import { postMessage } from '../../../src/jobs/relay/post-message.js';
import { type RelayContext, UNCONFIRMED } from '../../../src/jobs/relay/relay-context.js';
import { verifyBeforePosting } from '../../../src/jobs/relay/verify-before-posting.js';
import type { OutboxMessage } from '../../../src/store/outbox-repo.js';
import { ALERTS, keyOf, useRelayFixture } from '../relay-fixture.js';

const f = useRelayFixture();

async function claimOne(ctx: RelayContext): Promise<OutboxMessage> {
  const row = (await claimByChannel(ctx)).flat()[0];
  if (!row) throw new Error('nothing was claimed');
  return row;
}

/** The row claimed, its last attempt left unconfirmed, and claimed again. */
async function unconfirmed(ctx: RelayContext, row: OutboxMessage): Promise<OutboxMessage> {
  await f.outbox.markRetry(row.id, `${UNCONFIRMED}the request timed out`, f.clock.now());
  return claimOne(ctx);
}

const histories = () => f.slack.callsTo('conversations.history');

describe('verifyBeforePosting', () => {
  it('asks nothing of Slack for a row whose last attempt is known not to have landed', async () => {
    const ctx = f.context();
    await f.enqueue({ dedupeKey: 'k1' });
    expect(await verifyBeforePosting(ctx, await claimOne(ctx))).toBeUndefined();
    expect(histories()).toHaveLength(0);
  });

  it('marks sent, without posting, a row whose unconfirmed post is in the channel', async () => {
    const ctx = f.context();
    await f.enqueue({ dedupeKey: 'k1' });
    const first = await claimOne(ctx);
    const ts = await postMessage(ctx, first, first.payload);
    const again = await unconfirmed(ctx, first);

    expect(await verifyBeforePosting(ctx, again)).toBe('sent');
    expect(await f.outbox.get(first.id)).toMatchObject({ status: 'sent', slackTs: ts });
    expect(f.slack.messages(ALERTS).map(keyOf)).toEqual(['k1']);
    expect(f.slack.callsTo('chat.postMessage')).toHaveLength(1);
  });

  it('lets an unconfirmed row that is not in the channel be posted', async () => {
    const ctx = f.context();
    await f.enqueue({ dedupeKey: 'k1' });
    const row = await unconfirmed(ctx, await claimOne(ctx));
    expect(await verifyBeforePosting(ctx, row)).toBeUndefined();
    expect(histories()).toHaveLength(1);
    expect((await f.outbox.get(row.id))?.status).toBe('sending');
  });

  it('does not post blindly when the history cannot be read: retried later, still unconfirmed', async () => {
    const ctx = f.context();
    await f.enqueue({ dedupeKey: 'k1' });
    const row = await unconfirmed(ctx, await claimOne(ctx));
    f.slack.failNext('conversations.history', 'internal_error');
    expect(await verifyBeforePosting(ctx, row)).toBe('retried');
    const after = await f.outbox.get(row.id);
    expect(after).toMatchObject({ status: 'pending' });
    expect(after?.lastError).toMatch(new RegExp(`^${UNCONFIRMED}history check failed`));
    expect(f.slack.callsTo('chat.postMessage')).toHaveLength(0);
  });
});

describe('chartThread', () => {
  const chartRow = async (afterDedupeKey?: string) => {
    await f.enqueue({
      dedupeKey: `chart:${afterDedupeKey ?? 'none'}`,
      kind: 'chart',
      payload: {
        text: 'Acme: the last 7 days',
        chart: { type: 'digest-brand', brand: 'Acme', citations: null, crawlerVisits: null, afterDedupeKey },
      },
    });
    return (await f.outbox.getByDedupeKey(`chart:${afterDedupeKey ?? 'none'}`))!;
  };

  it('is the channel itself when the chart follows nothing (or its digest was purged)', async () => {
    const ctx = f.context();
    expect(await chartThread(ctx.outbox, await chartRow())).toEqual({ ts: undefined });
    expect(await chartThread(ctx.outbox, await chartRow('purged-digest'))).toEqual({ ts: undefined });
  });

  it('waits for its digest, goes into its thread once sent, and is lost when the digest failed', async () => {
    const ctx = f.context();
    await f.enqueue({ dedupeKey: 'digest-1', kind: 'digest' });
    const chart = await chartRow('digest-1');
    expect(await chartThread(ctx.outbox, chart)).toBe('wait');

    const digest = (await f.outbox.getByDedupeKey('digest-1'))!;
    await f.outbox.markSent(digest.id, '1700000000.000100', f.clock.now());
    expect(await chartThread(ctx.outbox, chart)).toEqual({ ts: '1700000000.000100' });

    await f.enqueue({ dedupeKey: 'digest-2', kind: 'digest' });
    await f.outbox.markFailed((await f.outbox.getByDedupeKey('digest-2'))!.id, 'channel: gone');
    expect(await chartThread(ctx.outbox, await chartRow('digest-2'))).toBe('lost');
  });
});
