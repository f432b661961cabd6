/**
 * Socket Mode with several connections (issue 13): two replicas, each with its own
 * WebSocket to Slack (the fake in fake-socket-mode.ts), on one Postgres database. Slack
 * hands each envelope to one connection, and sends an envelope nobody acknowledged again on
 * another connection: every command is answered once, and a redelivered envelope is
 * handled once, whichever replica gets which attempt.
 */
import { describe, expect, it, vi } from 'vitest';
import type { StoredView } from '../../src/dev/local-slack/index.js';
import { SEED_BRANDS } from '../../src/dev/simulator/index.js';
import { type Replica, useSlackReplicas } from './slack-replicas-harness.js';

type Json = Record<string, unknown>;
const { acme } = SEED_BRANDS;
const APP_TOKEN = 'xapp-1-A0LOCALAPP-1234-socketreplicastoken';
const r = useSlackReplicas({ appToken: APP_TOKEN, ackTimeoutMs: 1000 });
const A = (): Replica => r.replicas[0]!;
const B = (): Replica => r.replicas[1]!;
const fake = () => r.fake!;
const logged = (replica: Replica, code: string) => replica.logLines.filter((l) => l.includes(code));

function channel(id: string): string {
  r.slack.addChannel({ id, name: id.toLowerCase(), isMember: true });
  return id;
}

describe('two replicas in Socket Mode, one connection each', () => {
  it('each replica holds its own connection, and every command is answered once by one of them', async () => {
    expect(fake().openSockets).toBe(2);
    expect(fake().appTokens).toEqual([APP_TOKEN, APP_TOKEN]);
    const ch = channel('CSOCKMANY');
    const before = fake().deliveries.length;
    const sent = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        r.slack.slashCommand(fake().relayUrl, { text: i % 2 ? 'brands' : 'help', channelId: ch }),
      ),
    );
    for (const res of sent) expect(res.status).toBe(200);
    for (const res of sent) await r.slack.waitFor(() => r.slack.responsesFor(res.responseUrlId)[0], 8000);
    // Each command once: one reply on its response_url, whatever was redelivered.
    for (const res of sent) expect(r.slack.responsesFor(res.responseUrlId)).toHaveLength(1);
    const first = fake()
      .deliveries.slice(before)
      .filter((d) => d.retryAttempt === 0);
    expect(first).toHaveLength(6);
    // Slack spreads the envelopes over both connections.
    expect(new Set(first.map((d) => d.connection))).toEqual(new Set([0, 1]));
  });

  it('an envelope whose ack never reached Slack is redelivered on the other connection and applied once', async () => {
    const ch = channel('CSOCKRETRY');
    const writes = () =>
      r.sim.requests.filter((q) => q.method === 'POST' && q.path === '/get-brands/markets');
    const before = fake().deliveries.length;
    fake().deliverTo(0);
    fake().loseAcks(0);
    try {
      const res = await r.slack.slashCommand(fake().relayUrl, {
        text: 'markets "Acme Analytics" add FR',
        channelId: ch,
      });
      // The relay answers once an attempt is acknowledged: B's ack of the redelivery.
      expect(res.status).toBe(200);
      await r.slack.waitFor(() => r.slack.responsesFor(res.responseUrlId)[0], 8000);
      const attempts = fake().deliveries.slice(before);
      expect(attempts.slice(0, 2).map((d) => [d.connection, d.retryAttempt])).toEqual([
        [0, 0],
        [1, 1],
      ]);
      expect(fake().acks.find((a) => a.envelopeId === attempts[0]!.envelopeId)).toMatchObject({
        connection: 1,
      });
      expect(logged(B(), 'slack_request_redelivered')).toHaveLength(1);
      expect(writes()).toHaveLength(1);
      expect(r.slack.responsesFor(res.responseUrlId)).toHaveLength(1);
      const audit = await B().deps.store.auditLog.recent(10);
      expect(audit.filter((e) => e.brandId === acme.id)).toHaveLength(1);
    } finally {
      fake().loseAcks(0, false);
      fake().deliverTo(undefined);
    }
  });

  it('a settings form opened through one connection and submitted through the other: a mistake comes back in the ack, a redelivered save is applied once', async () => {
    const ch = channel('CSOCKFORM');
    fake().deliverTo(0);
    const sub = await r.slack.slashCommand(fake().relayUrl, {
      text: 'subscribe "Acme Analytics" alerts',
      channelId: ch,
    });
    await r.slack.waitFor(() => r.slack.responsesFor(sub.responseUrlId)[0], 8000);
    await r.slack.slashCommand(fake().relayUrl, { text: 'settings "Acme Analytics"', channelId: ch });
    const view: StoredView = await r.slack.waitFor(
      () => r.slack.views().find((v) => v.callback_id === 'vis:settings:save' && !v.closed),
      8000,
    );
    fake().deliverTo(1);
    try {
      const crawler = (view.blocks as Json[]).find((b) => b['block_id'] === 'settings_crawler-drop')!;
      const actionId = String((crawler['element'] as Json)['action_id']);
      const submitted = await r.slack.viewSubmission(fake().relayUrl, {
        callbackId: 'vis:settings:save',
        viewId: view.id,
        values: { 'settings_crawler-drop': { [actionId]: { type: 'plain_text_input', value: 'lots' } } },
      });
      // A mistake travels back in B's ack, as the HTTP answer would carry it.
      expect(submitted.json).toMatchObject({
        response_action: 'errors',
        errors: { 'settings_crawler-drop': '"lots" must be a whole percentage from 1 to 100.' },
      });
      expect(fake().deliveries.at(-1)).toMatchObject({ connection: 1, type: 'interactive' });
      expect((await A().deps.store.subscriptions.get(ch, acme.id))!.settings.crawlerDropPct).toBe(40);

      // The valid form: B saves it, its ack is lost, Slack sends it again on A's connection.
      const before = fake().deliveries.length;
      fake().loseAcks(1);
      const saved = await r.slack.viewSubmission(fake().relayUrl, {
        callbackId: 'vis:settings:save',
        viewId: view.id,
        values: { 'settings_crawler-drop': { [actionId]: { type: 'plain_text_input', value: '60' } } },
      });
      expect(saved.status).toBe(200);
      expect(
        fake()
          .deliveries.slice(before, before + 2)
          .map((d) => [d.connection, d.retryAttempt]),
      ).toEqual([
        [1, 0],
        [0, 1],
      ]);
      expect(logged(A(), 'slack_request_redelivered')).toHaveLength(1);
      expect((await A().deps.store.subscriptions.get(ch, acme.id))!.settings.crawlerDropPct).toBe(60);
      const changes = async () =>
        (await B().deps.store.auditLog.recent(20)).filter((e) => e.action.includes('settings'));
      await vi.waitFor(async () => expect(await changes()).toHaveLength(1), { timeout: 5000 });
      const notes = () =>
        r.slack
          .messages(ch)
          .filter(
            (m) => m.via === 'chat.postMessage' && JSON.stringify(m).includes('Crawler drop*: 40 % → 60 %'),
          );
      await r.slack.waitFor(() => notes().length > 0 || undefined, 5000);
      expect(notes()).toHaveLength(1);
    } finally {
      fake().loseAcks(1, false);
      fake().deliverTo(undefined);
    }
  });
});
