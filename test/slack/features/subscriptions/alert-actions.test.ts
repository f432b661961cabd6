/**
 * The alert buttons, clicked through the local Slack on a message the real outbox relay
 * posted, handled by the real service (signed requests, Bolt, the action router).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredMessage } from '../../../../src/dev/local-slack/index.js';
import { SEED_BRANDS } from '../../../../src/dev/simulator/index.js';
import { createOutboxRelay } from '../../../../src/jobs/outbox-relay.js';
import { ALERT_ACTIONS, ALERT_BLOCK_IDS } from '../../../../src/messages/alert-message.js';
import { SNOOZE_MS } from '../../../../src/slack/features/subscriptions/alert-snooze.js';
import { CHANNEL_NOTE_EVENT } from '../../../../src/slack/features/subscriptions/post-channel-note.js';
import { type Harness, startHarness } from '../../../e2e/service-harness.js';
import { alert, alertMessage } from '../../../jobs/alert-fixtures.js';

type Json = Record<string, unknown>;
const ACME = SEED_BRANDS.acme;
const USER = 'U0LOCALUSR';

let h: Harness;
let channel: string;

beforeAll(async () => {
  h = await startHarness();
  channel = h.slack.defaultChannelId;
});
afterAll(async () => {
  await h?.close();
});

/** Posts a real alert message for Acme through the outbox relay; returns it as Slack stores it. */
async function postAlert(key: string, only?: 'one alert'): Promise<StoredMessage> {
  const m = alertMessage(
    only
      ? [alert('citation_lost', `example.com/${key}`, ACME)]
      : [alert('citation_lost', `example.com/${key}`, ACME), alert('crawler_drop', `GPTBot ${key}`, ACME)],
  );
  await h.deps.store.outbox().enqueue({
    dedupeKey: key,
    channelId: channel,
    brandId: ACME.id,
    kind: 'alert',
    payload: { text: m.text, blocks: m.blocks, metadata: m.metadata },
    nowMs: h.deps.clock.now(),
  });
  const relay = createOutboxRelay(h.deps, {
    owner: 'alert-actions-test',
    paceMs: 0,
  });
  expect((await relay.drainOnce()).sent).toBe(1);
  return h.slack.messages(channel).at(-1)!;
}

const elements = (blocks: unknown[] | undefined) =>
  ((blocks ?? []) as Json[]).flatMap((b) => [
    ...(b['type'] === 'actions' ? (b['elements'] as Json[]) : []),
    ...(b['accessory'] ? [b['accessory'] as Json] : []),
  ]);

describe('alert buttons', () => {
  it('Acknowledge edits the alert in the channel: who acknowledged, button gone; audited', async () => {
    const message = await postAlert('ack-1');
    expect(elements(message.blocks).some((e) => e['action_id'] === ALERT_ACTIONS.ack)).toBe(true);

    const res = await h.slack.blockAction(h.appUrl, {
      actionId: ALERT_ACTIONS.ack,
      channelId: channel,
      messageTs: message.ts,
      userId: USER,
    });
    expect(res.status).toBe(200);
    const [update] = await h.slack.waitFor(() => {
      const calls = h.slack.callsTo('chat.update');
      return calls.length > 0 && calls;
    }, 5000);
    expect(update!.args).toMatchObject({ channel, ts: message.ts });
    expect(update!.response['ok']).toBe(true);

    const edited = h.slack.messages(channel).find((m) => m.ts === message.ts)!;
    expect(edited.edited).toBeDefined();
    const footer = (edited.blocks as Json[]).find((b) => b['block_id'] === ALERT_BLOCK_IDS.footer)!;
    expect(JSON.stringify(footer)).toContain(`Acknowledged by <@${USER}>`);
    expect(elements(edited.blocks).some((e) => e['action_id'] === ALERT_ACTIONS.ack)).toBe(false);
    // The rest of the alert is still there, and so is the key in its metadata.
    expect(JSON.stringify(edited.blocks)).toContain('example.com/ack-1');
    expect(edited.metadata?.event_payload['key']).toBe('ack-1');
    expect(edited.text).toBe(message.text);

    // Recorded once chat.update has answered, a moment after Slack logged the call.
    const findEntry = async () =>
      (await h.deps.auditLog.recent(10)).find((e) => e.action === 'alert.acknowledge');
    await expect.poll(findEntry, { timeout: 5000 }).toBeDefined();
    const entry = (await findEntry())!;
    expect(entry).toMatchObject({ userId: USER, channelId: channel, brandId: ACME.id, result: 'ok' });
    expect(entry.detail).toMatchObject({ messageTs: message.ts });
  });

  it("Snooze in one alert's menu snoozes that kind for that brand in that channel, confirms privately with the end, audited", async () => {
    const message = await postAlert('snooze-1');
    const menus = elements(message.blocks).filter((e) => e['type'] === 'overflow');
    // Every alert has its own menu with Acknowledge and Snooze; click the crawler one's Snooze.
    expect(menus).toHaveLength(2);
    const options = menus.map((m) => (m['options'] as Json[]).map((o) => JSON.parse(String(o['value']))));
    expect(options).toEqual([
      [{ do: 'ack' }, { do: 'snooze', kind: 'citation_lost', brandId: ACME.id }],
      [{ do: 'ack' }, { do: 'snooze', kind: 'crawler_drop', brandId: ACME.id }],
    ]);
    const crawlerMenu = menus[1]!;
    const snoozeOption = (crawlerMenu['options'] as Json[])[1]!;

    const before = h.deps.clock.now();
    const res = await h.slack.blockAction(h.appUrl, {
      actionId: String(crawlerMenu['action_id']),
      selectedOption: String(snoozeOption['value']),
      channelId: channel,
      messageTs: message.ts,
      userId: USER,
    });
    const reply = await h.slack.waitFor(() => h.slack.responsesFor(res.responseUrlId)[0], 5000);
    const body = reply.body as { text: string; response_type?: string; replace_original?: boolean };
    expect(reply.status).toBe(200);
    expect(body.response_type ?? 'ephemeral').toBe('ephemeral');
    expect(body.replace_original).toBe(false);
    expect(body.text).toContain('Crawler alerts for *Acme Analytics* are snoozed');
    expect(body.text).toMatch(/until <!date\^\d+\^/);

    const active = await h.deps.store.snoozes.active(channel, ACME.id, h.deps.clock.now());
    expect([...active.keys()]).toEqual(['crawler_drop']);
    const until = active.get('crawler_drop')!;
    expect(until).toBeGreaterThanOrEqual(before + SNOOZE_MS);
    expect(until).toBeLessThanOrEqual(h.deps.clock.now() + SNOOZE_MS);
    expect(body.text).toContain(`<!date^${Math.floor(until / 1000)}^`);

    const entry = (await h.deps.auditLog.recent(10)).find((e) => e.action === 'alert.snooze')!;
    expect(entry).toMatchObject({ userId: USER, channelId: channel, brandId: ACME.id, result: 'ok' });
    expect(entry.detail).toMatchObject({ kind: 'crawler_drop', untilMs: until });
    // The alert itself is left as it was.
    expect(h.slack.messages(channel).find((m) => m.ts === message.ts)!.edited).toBeUndefined();
    // And the channel is told who snoozed what, until when, in a message of its own.
    const note = h.slack
      .messages(channel)
      .find((m) => m.metadata?.event_type === CHANNEL_NOTE_EVENT && m.ts > message.ts)!;
    expect(note.via).toBe('chat.postMessage');
    expect(note.text).toContain(
      `<@${USER}> snoozed crawler alerts for *Acme Analytics* in this channel until`,
    );
    expect(note.text).toContain(`<!date^${Math.floor(until / 1000)}^`);
    expect(note.text).toContain('They come back by themselves then');
    await h.deps.store.snoozes.clear(channel, ACME.id, 'crawler_drop');
  });

  it("Acknowledge in one alert's menu marks only that alert, which keeps a Snooze button; audited with its key", async () => {
    const message = await postAlert('row-ack');
    const menus = elements(message.blocks).filter((e) => e['type'] === 'overflow');
    const lostMenu = menus[0]!;
    await h.slack.blockAction(h.appUrl, {
      actionId: String(lostMenu['action_id']),
      selectedOption: String((lostMenu['options'] as Json[])[0]!['value']),
      channelId: channel,
      messageTs: message.ts,
      userId: USER,
    });
    const edited = await h.slack.waitFor(() => {
      const m = h.slack.messages(channel).find((x) => x.ts === message.ts);
      return m?.edited ? m : undefined;
    }, 5000);
    const rows = (edited.blocks as Json[]).filter((b) =>
      String(b['block_id'] ?? '').startsWith(ALERT_BLOCK_IDS.rowPrefix),
    );
    expect(rows).toHaveLength(2);
    const [lost, crawler] = rows as [Json, Json];
    expect(JSON.stringify(lost['text'])).toContain('example.com/row-ack');
    expect(JSON.stringify(lost['text'])).toContain(`Acknowledged by <@${USER}>`);
    // Its menu became the plain Snooze button, still for its own kind.
    const accessory = lost['accessory'] as Json;
    expect(accessory['action_id']).toBe(ALERT_ACTIONS.snooze);
    expect(JSON.parse(String(accessory['value']))).toEqual({ brandId: ACME.id, kind: 'citation_lost' });
    // The other alert is untouched, and the message can still be acknowledged as a whole.
    expect(JSON.stringify(crawler)).not.toContain('Acknowledged by');
    expect((crawler['accessory'] as Json)['type']).toBe('overflow');
    expect(elements(edited.blocks).some((e) => e['action_id'] === ALERT_ACTIONS.ack)).toBe(true);

    const findEntry = async () =>
      (await h.deps.auditLog.recent(20)).find(
        (e) => e.action === 'alert.acknowledge' && e.detail?.['messageTs'] === message.ts,
      );
    await expect.poll(findEntry, { timeout: 5000 }).toBeDefined();
    const entry = (await findEntry())!;
    expect(entry).toMatchObject({ userId: USER, channelId: channel, brandId: ACME.id, result: 'ok' });
    expect(entry.detail).toMatchObject({ alertKey: `citation_lost:${ACME.id}:example.com/row-ack:v1` });
  });

  it("a one-alert message's Snooze button (the button older grouped messages carry too) still snoozes its kind", async () => {
    const message = await postAlert('old-snooze', 'one alert');
    const res = await h.slack.blockAction(h.appUrl, {
      actionId: ALERT_ACTIONS.snooze,
      value: JSON.stringify({ brandId: ACME.id, kind: 'citation_lost' }),
      channelId: channel,
      messageTs: message.ts,
      userId: USER,
    });
    const reply = await h.slack.waitFor(() => h.slack.responsesFor(res.responseUrlId)[0], 5000);
    expect((reply.body as { text: string }).text).toContain(
      'Lost-page alerts for *Acme Analytics* are snoozed',
    );
    expect(
      (await h.deps.store.snoozes.active(channel, ACME.id, h.deps.clock.now())).has('citation_lost'),
    ).toBe(true);
  });

  it('a snooze button from a stale message answers privately and snoozes nothing', async () => {
    const message = await postAlert('snooze-2', 'one alert');
    const res = await h.slack.blockAction(h.appUrl, {
      actionId: ALERT_ACTIONS.snooze,
      value: '{"brandId":"x","kind":"not_a_kind"}',
      channelId: channel,
      messageTs: message.ts,
      userId: USER,
    });
    const reply = await h.slack.waitFor(() => h.slack.responsesFor(res.responseUrlId)[0], 5000);
    expect((reply.body as { text: string }).text).toContain('older message');
    expect((await h.deps.store.snoozes.active(channel, 'x', h.deps.clock.now())).size).toBe(0);
  });
});
