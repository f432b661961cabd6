/**
 * `chart` rows in the relay, against the local Slack: a chart never goes before the
 * message it follows, goes into that message's thread, is dropped when the channel turned
 * the digest chart off or its digest was not delivered, and a chart the renderer cannot
 * draw fails alone, its digest already delivered.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_SETTINGS } from '../../src/alerts/alert-settings.js';
import type { ChartRenderer } from '../../src/charts/chart-renderer.js';
import { createOutboxRelay } from '../../src/jobs/outbox-relay.js';
import type { OutboxPayload } from '../../src/store/outbox-repo.js';
import { captureLogger } from './job-fixture.js';
import { ALERTS, relayWebClient, useRelayFixture } from './relay-fixture.js';

const f = useRelayFixture();

const DIGEST_KEY = `${ALERTS}:digest:brand-1:2026-11-24`;
const CHART_KEY = `${ALERTS}:chart:digest:brand-1:2026-11-24`;
const days = (values: number[]) => values.map((value, i) => ({ date: `2026-11-${String(17 + i)}`, value }));

async function subscribe(digestChart = true) {
  await f.subscriptions.upsert({
    channelId: ALERTS,
    brandId: 'brand-1',
    brandName: 'Acme',
    digest: true,
    settings: { ...DEFAULT_ALERT_SETTINGS, digestChart },
    createdBy: 'U1',
    createdAtMs: f.clock.now(),
  });
}

const chartPayload: OutboxPayload = {
  text: 'Acme: the last 7 days at a glance',
  chart: {
    type: 'digest-brand',
    brand: 'Acme',
    citations: days([10, 12, 11, 14, 13, 15, 16]),
    crawlerVisits: days([100, 90, 95, 80, 120, 110, 105]),
    afterDedupeKey: DIGEST_KEY,
  },
};

const enqueueChart = () => f.enqueue({ dedupeKey: CHART_KEY, kind: 'chart', payload: chartPayload });
const enqueueDigest = () =>
  f.enqueue({ dedupeKey: DIGEST_KEY, kind: 'digest', payload: { text: 'Acme: daily digest' } });
const status = (key: string) => f.outbox.getByDedupeKey(key);

describe('chart rows', () => {
  it('wait for the digest they follow, then go into its thread', async () => {
    await subscribe();
    // The chart row is older: it still waits for its digest.
    await enqueueChart();
    await enqueueDigest();
    const relay = f.relay({ paceMs: 10 });
    for (let i = 0; i < 5 && (await status(CHART_KEY))?.status !== 'sent'; i += 1) {
      await relay.drainOnce();
      f.clock.advance(20);
    }
    const digest = (await status(DIGEST_KEY))!;
    expect(digest.status).toBe('sent');
    const [file] = f.slack.files(ALERTS);
    expect(file?.thread_ts).toBe(digest.slackTs);
    expect(file?.altText).toContain('Acme');
    expect(await status(CHART_KEY)).toMatchObject({
      status: 'sent',
      slackTs: file?.id,
      uploadFileId: file?.id,
    });
    const methods = f.slack.calls.map((c) => c.method);
    expect(methods.indexOf('chat.postMessage')).toBeLessThan(methods.indexOf('files.getUploadURLExternal'));
  });

  it('are dropped when the channel turned the digest chart off after they were written', async () => {
    await subscribe(false);
    await enqueueDigest();
    await enqueueChart();
    await f.relay({ paceMs: 10 }).drainOnce();
    expect((await status(DIGEST_KEY))?.status).toBe('sent');
    expect(await status(CHART_KEY)).toMatchObject({
      status: 'failed',
      lastError: 'digest chart turned off before it was posted',
    });
    expect(f.slack.files()).toEqual([]);
  });

  it('fail with their digest: a chart alone would make no sense', async () => {
    await subscribe();
    await enqueueDigest();
    await enqueueChart();
    f.slack.failNext('chat.postMessage', 'invalid_arguments');
    const relay = f.relay({ paceMs: 10 });
    await relay.drainOnce();
    f.clock.advance(20);
    await relay.drainOnce();
    expect((await status(DIGEST_KEY))?.status).toBe('failed');
    expect(await status(CHART_KEY)).toMatchObject({
      status: 'failed',
      lastError: 'the message it belongs to was not delivered',
    });
    expect(f.slack.callsTo('files.getUploadURLExternal')).toEqual([]);
  });

  it('that cannot be drawn fail alone, logged, and upload nothing', async () => {
    await subscribe();
    await enqueueDigest();
    await enqueueChart();
    const broken: ChartRenderer = {
      render: () => Promise.reject(new Error('the rasteriser gave up')),
    };
    // The renderer is the relay's dependency: one that fails, as a broken font install would.
    const withBroken = createOutboxRelay(
      {
        store: f.store.store,
        web: relayWebClient(f.slack),
        clock: f.clock,
        logger: captureLogger(f.logs),
        charts: broken,
      },
      { owner: 'relay-b', paceMs: 10 },
    );
    await withBroken.drainOnce();
    expect((await status(DIGEST_KEY))?.status).toBe('sent');
    expect(await status(CHART_KEY)).toMatchObject({
      status: 'failed',
      lastError: 'chart could not be drawn: the rasteriser gave up',
    });
    expect(f.slack.files()).toEqual([]);
    expect(f.logs.some((l) => l.level >= 50 && l.msg.startsWith('chart could not be drawn'))).toBe(true);
  });
});
